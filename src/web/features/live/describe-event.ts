// What a live event says to a person (docs/rules.md#live-activity), read from the object the event
// carries as the API shows it. Only what the sentence needs is read, and a field that is missing
// leaves it out: an event of a type this page does not know says nothing.
import type { LiveEvent } from '../../../contracts/live-events';

// The platform's formatter, not the core's: this runs in the signed-in frame, which keeps the
// domain core out of its bundle.
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const formatUsd = (amountCents: number) => usd.format(amountCents / 100);

type Data = Record<string, unknown>;
const objectOf = (value: unknown): Data | null => (typeof value === 'object' && value !== null ? (value as Data) : null);
const text = (data: Data, key: string) => (typeof data[key] === 'string' && data[key] !== '' ? (data[key] as string) : null);
const cents = (data: Data, key: string) => (typeof data[key] === 'number' && Number.isSafeInteger(data[key]) ? formatUsd(data[key] as number) : null);
const join = (...parts: Array<string | null>) => parts.filter((part): part is string => part !== null).join(' ');

/**
 * What the sentences read: a purchase's event carries its transaction (and, approved, the card),
 * a cash-out's the cash-out, a card's the card, a rebate's the rebate.
 */
function partsOf(data: Data) {
  const item = objectOf(data.transaction) ?? data;
  const card = objectOf(data.card) ?? data;
  const last4 = text(card, 'last4') ?? text(item, 'cardLast4');
  return {
    amount: cents(item, 'amountCents') ?? cents(item, 'rebateAmountCents'),
    merchant: text(item, 'merchant'),
    declineMessage: text(item, 'declineMessage'),
    last4,
    onCard: last4 ? `on the card ending ${last4}` : null,
  };
}

export function describeEvent(event: Pick<LiveEvent, 'type' | 'data'>): string | null {
  const { amount, merchant, declineMessage, last4, onCard } = partsOf(objectOf(event.data) ?? {});
  switch (event.type) {
    case 'card.authorization.approved':
      return `${join('Purchase approved:', amount, merchant && `at ${merchant}`, onCard)}.`;
    case 'card.authorization.declined':
      return declineMessage ?? `${join('Purchase declined:', amount, merchant && `at ${merchant}`, onCard)}.`;
    case 'card.frozen':
      return last4 ? `The card ending ${last4} was frozen.` : 'A card was frozen.';
    case 'card.unfrozen':
      return last4 ? `The card ending ${last4} was unfrozen.` : 'A card was unfrozen.';
    case 'card.controls.updated':
      return 'Card controls updated.';
    case 'cashout.created':
      return `${join('Cash-out', amount && `of ${amount}`, 'started')}.`;
    case 'cashout.paid':
      return `${join('Cash-out', amount && `of ${amount}`, 'paid out')}.`;
    case 'combine.completed':
      return 'Your new card is ready.';
    case 'rebate.paid':
      return `${join('BNPL rebate', amount && `of ${amount}`, 'paid')}.`;
    default:
      return null;
  }
}
