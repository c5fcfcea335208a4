import { act, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveActivity } from './LiveActivity';
import { describeEvent } from './describe-event';

/** The browser's EventSource as the page uses it: one per page, messages pushed by the test. */
class FakeEventSource {
  static opened: FakeEventSource[] = [];
  onmessage: ((message: MessageEvent<string>) => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }
  push(event: unknown) {
    act(() => this.onmessage?.({ data: JSON.stringify(event) } as MessageEvent<string>));
  }
  close() {
    this.closed = true;
  }
}

describe('LiveActivity', () => {
  beforeEach(() => {
    FakeEventSource.opened = [];
    vi.stubGlobal('EventSource', FakeEventSource);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('opens the stream, refreshes the page on each event and says it politely, once per event', () => {
    const client = new QueryClient();
    const refresh = vi.spyOn(client, 'invalidateQueries');
    const view = render(
      <QueryClientProvider client={client}>
        <LiveActivity />
      </QueryClientProvider>,
    );
    const [source] = FakeEventSource.opened;
    expect(source?.url).toBe('/api/events/stream');
    const status = screen.getByRole('status');
    expect(status).toHaveAttribute('aria-live', 'polite');

    const approved = { id: 'evt_1', type: 'card.authorization.approved', createdAt: '2026-11-29T02:00:00Z', data: { transaction: { amountCents: 750, merchant: 'Corner Books' }, card: { last4: '4242' } } };
    source!.push(approved);
    expect(status).toHaveTextContent('Purchase approved: $7.50 at Corner Books on the card ending 4242.');
    expect(refresh).toHaveBeenCalledTimes(1);
    source!.push(approved);
    expect(refresh).toHaveBeenCalledTimes(1);
    source!.push('not an event');
    expect(refresh).toHaveBeenCalledTimes(1);

    view.unmount();
    expect(source!.closed).toBe(true);
  });
});

describe('describeEvent', () => {
  it('says each kind of event in words, with what its object tells', () => {
    const say = (type: string, data: unknown = {}) => describeEvent({ type, data });
    expect(say('card.authorization.declined', { transaction: { amountCents: 1_200, merchant: 'Corner Books', declineMessage: "Declined: this card's daily limit leaves $2.50 today." } })).toBe(
      "Declined: this card's daily limit leaves $2.50 today.",
    );
    expect(say('card.authorization.declined', { transaction: { amountCents: 500, merchant: 'Gadget Store', declineReason: 'frozen' } })).toBe('Purchase declined: $5.00 at Gadget Store.');
    expect(say('card.frozen', { last4: '1111' })).toBe('The card ending 1111 was frozen.');
    expect(say('card.unfrozen')).toBe('A card was unfrozen.');
    expect(say('cashout.paid', { amountCents: 12_345, cardLast4: '2222' })).toBe('Cash-out of $123.45 paid out.');
    expect(say('rebate.paid', { rebateAmountCents: 150 })).toBe('BNPL rebate of $1.50 paid.');
    expect(say('combine.completed')).toBe('Your new card is ready.');
    expect(say('something.new')).toBeNull();
  });
});
