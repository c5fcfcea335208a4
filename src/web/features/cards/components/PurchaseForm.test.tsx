import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { fakeApi, renderPage } from '../../../test/render';
import { fill } from '../../../test/user';
import { cardFixture } from '../../../test/fixtures';
import { PurchaseForm } from './PurchaseForm';

describe('Simulate a purchase', () => {
  it('a fast double click charges the card once', async () => {
    const card = cardFixture();
    const api = fakeApi({
      [`POST /api/cards/${card.id}/purchases`]: () => ({
        status: 201,
        body: { transaction: {}, card: { ...card, amountSpentCents: 1_234, remainingAmountCents: card.remainingAmountCents - 1_234 } },
      }),
    });
    const { user } = renderPage(<PurchaseForm card={card} />, { path: '/my-cards' });
    await fill(user, screen.getByLabelText(/^Merchant name/), 'Coffee Shop');
    await user.type(screen.getByLabelText(/^Amount/), '12.34');
    // Two clicks in one go, before React re-renders the button as busy.
    const submit = screen.getByRole('button', { name: 'Simulate purchase' });
    fireEvent.click(submit);
    fireEvent.click(submit);
    expect(await screen.findByText('Approved: $12.34 at Coffee Shop. Remaining balance $487.66.')).toBeVisible();
    expect(api.bodiesOf('POST', `/api/cards/${card.id}/purchases`)).toHaveLength(1);
  });

  it('sends the merchant category chosen, and none when it is left unnamed', async () => {
    const card = cardFixture();
    const api = fakeApi({ [`POST /api/cards/${card.id}/purchases`]: () => ({ status: 201, body: { transaction: {}, card } }) });
    const { user } = renderPage(<PurchaseForm card={card} />, { path: '/my-cards' });
    const buy = async (category?: string) => {
      await fill(user, screen.getByLabelText(/^Merchant name/), 'Grocer');
      await user.type(screen.getByLabelText(/^Amount/), '1');
      if (category) await user.selectOptions(screen.getByLabelText(/^Merchant category/), category);
      await user.click(screen.getByRole('button', { name: 'Simulate purchase' }));
      await screen.findByText(/^Approved: \$1\.00 at Grocer/);
    };
    await buy();
    await buy('groceries');
    expect(api.bodiesOf('POST', `/api/cards/${card.id}/purchases`)).toEqual([
      { merchant: 'Grocer', amountCents: 100 },
      { merchant: 'Grocer', amountCents: 100, category: 'groceries' },
    ]);
  });
});
