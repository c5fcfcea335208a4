// What a live event says to a person (docs/rules.md#live-activity), read from the object the event
// carries as the API shows it. Only what the sentence needs is read, and a field that is missing
// leaves it out: an event of a type this page does not know says nothing.
import type { LiveEvent } from '../../../contracts/live-events';

// The platform's formatter, not the core's: this runs in the signed-in frame, which keeps the
// domain core out of its bundle.
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const formatUsd = (amountCents: number) => usd.format(amountCents / 100);

type Data = Record<string, unknown>;
const text = (data: Data, key: string) => (typeof data[key] === 'string' && data[key] !== '' ? (data[key] as string) : null);
const cents = (data: Data, key: string) => (typeof data[key] === 'number' && Number.isSafeInteger(data[key]) ? formatUsd(data[key] as number) : null);
const join = (...parts: Array<string | null>) => parts.filter((part): part is string => part !== null).join(' ');

const last4Of = (data: Data) => text(data, 'cardLast4') ?? text(data, 'last4');
const cardOf = (data: Data) => (last4Of(data) ? `on the card ending ${last4Of(data)}` : null);

export function describeEvent(event: Pick<LiveEvent, 'type' | 'data'>): string | null {
  const data: Data = typeof event.data === 'object' && event.data !== null ? (event.data as Data) : {};
  const amount = cents(data, 'amountCents');
  const merchant = text(data, 'merchant');
  switch (event.type) {
    case 'card.authorization.approved':
      return `${join('Purchase approved:', amount, merchant && `at ${merchant}`, cardOf(data))}.`;
    case 'card.authorization.declined':
      return text(data, 'declineMessage') ?? text(data, 'message') ?? `${join('Purchase declined:', amount, merchant && `at ${merchant}`, cardOf(data))}.`;
    case 'card.frozen':
      return last4Of(data) ? `The card ending ${last4Of(data)} was frozen.` : 'A card was frozen.';
    case 'card.unfrozen':
      return last4Of(data) ? `The card ending ${last4Of(data)} was unfrozen.` : 'A card was unfrozen.';
    case 'card.controls.updated':
      return 'Card controls updated.';
    case 'cashout.created':
      return `${join('Cash-out of', amount ?? 'money', 'started')}.`;
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
