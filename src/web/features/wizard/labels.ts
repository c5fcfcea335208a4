// How the wizard names a source on screen: from the server's view of it (brand, last 4,
// provider), never from a card number, which the browser no longer has once a source is added.
import { CARD_BRAND_LABELS } from '../../../core/cards';
import type { CardBrand } from '../../../core/cards';
import { PROVIDER_LABELS, SOURCE_TYPE_LABELS } from '../../../core/fees';
import type { ProviderId, SourceType } from '../../../core/fees';
import type { CombineSource } from '../../../contracts/combines';

export const INTERNAL_SOURCE_LABEL = 'PayWeave card balance';

export function sourceTypeLabel(type: CombineSource['type']): string {
  return type === 'internal' ? INTERNAL_SOURCE_LABEL : SOURCE_TYPE_LABELS[type as SourceType];
}

export function providerLabel(provider: string): string {
  return Object.hasOwn(PROVIDER_LABELS, provider) ? PROVIDER_LABELS[provider as ProviderId] : provider;
}

export function brandLabel(brand: string | null): string | null {
  if (!brand) return null;
  if (Object.hasOwn(CARD_BRAND_LABELS, brand)) return CARD_BRAND_LABELS[brand as CardBrand];
  return brand.charAt(0).toUpperCase() + brand.slice(1);
}

/** "Visa •••• 4242", "Klarna (BNPL)", "PayWeave card •••• 1234". */
export function sourceName(source: Pick<CombineSource, 'type' | 'provider' | 'brand' | 'last4'>): string {
  if (source.type === 'bnpl') return `${providerLabel(source.provider)} (BNPL)`;
  if (source.type === 'internal') return source.last4 ? `PayWeave card •••• ${source.last4}` : 'PayWeave card';
  const brand = brandLabel(source.brand) ?? providerLabel(source.provider);
  return source.last4 ? `${brand} •••• ${source.last4}` : brand;
}

export function networkLabel(network: string): string {
  return network === 'mastercard' ? 'Mastercard' : network === 'visa' ? 'Visa' : network;
}

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

export function formatDateTime(iso: string): string {
  return dateTime.format(new Date(iso));
}

export function formatDate(iso: string): string {
  return dateOnly.format(new Date(iso));
}

/** Demo test numbers shown in the source form (demo mode only), as payment test modes list them. */
export const DEMO_TEST_CARDS: ReadonlyArray<{ number: string; label: string; outcome: string }> = [
  { number: '4242 4242 4242 4242', label: 'Visa', outcome: 'approved' },
  { number: '5555 5555 5555 4444', label: 'Mastercard', outcome: 'approved' },
  { number: '3782 822463 10005', label: 'Amex', outcome: 'approved' },
  { number: '6011 1111 1111 1117', label: 'Discover', outcome: 'approved' },
  { number: '4000 0000 0000 9995', label: 'Visa', outcome: 'always declined (insufficient funds)' },
];

// What to do next after the server's refusal, which leads (docs/rules.md#messages: 'Insufficient funds for
// pre-authorization'). The always-declined test number needs no more: the demo list says so.
export const DECLINE_HINTS = {
  demoRandom:
    'In demo mode about 1 in 10 pre-authorizations are declined at random, like a real issuer sometimes does. Nothing was charged: try again, or use another card.',
  live: 'Nothing was charged: try again, or use another card.',
} as const;

/** The sentence for a pre-authorization the issuer refused (the server answers 402 with the reason). */
export function declineMessage(options: { serverMessage: string; cardNumber: string; demoMode: boolean; declineTestNumber: string }): string {
  if (options.cardNumber.replace(/\D/g, '') === options.declineTestNumber) return options.serverMessage;
  // The catalogue's texts end without a full stop; one is needed before the next sentence.
  const reason = /[.!?]$/.test(options.serverMessage) ? options.serverMessage : `${options.serverMessage}.`;
  return `${reason} ${options.demoMode ? DECLINE_HINTS.demoRandom : DECLINE_HINTS.live}`;
}
