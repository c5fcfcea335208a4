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
