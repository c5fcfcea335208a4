import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { CardControlsResponse } from '../../../../contracts/card-controls';
import { fakeApi, renderPage } from '../../../test/render';
import { fill } from '../../../test/user';
import { CardControlsSection } from './CardControlsSection';

const CARD_ID = '6b0b4a4e-0000-4000-8000-0000000000c1';
const URL = `/api/cards/${CARD_ID}/controls`;
const NO_LIMITS = { perTransactionCents: null, perDayCents: null, per30DaysCents: null, perYearCents: null, lifetimeCents: null };

function answer(over: Partial<CardControlsResponse['controls']>, availableText: string | null, available = {}): CardControlsResponse {
  return {
    cardId: CARD_ID,
    controls: { ...NO_LIMITS, merchantLock: { mode: 'off' }, blockCategories: [], allowOnlyCategories: [], ...over },
    available: { ...NO_LIMITS, largestPurchaseCents: null, ...available },
    availableText,
  };
}

// docs/rules.md#card-controls: the details modal says what the limits leave now, and edits them.
describe('card controls', () => {
  it('shows what each limit leaves now, the lock and the categories', async () => {
    fakeApi({ [`GET ${URL}`]: { body: answer({ perDayCents: 6_000, merchantLock: { mode: 'named', merchant: 'Corner Cafe' }, blockCategories: ['gambling', 'cash_like'] }, '$42.10 left today, $310.00 left this 30 days') } });
    renderPage(<CardControlsSection cardId={CARD_ID} />, { path: '/my-cards' });
    const row = async (term: string) => within((await screen.findByText(term, { selector: 'dt' })).parentElement!);
    expect((await row('Limits')).getByText('$42.10 left today, $310.00 left this 30 days')).toBeVisible();
    expect((await row('Merchant')).getByText('Locked to Corner Cafe')).toBeVisible();
    expect((await row('Categories')).getByText('Blocked: Gambling, Cash-like (money orders, crypto, gift cards)')).toBeVisible();
  });

  it('saves the form as the API takes it and shows what is left after', async () => {
    const api = fakeApi({
      [`GET ${URL}`]: { body: answer({}, null) },
      [`PUT ${URL}`]: ({ body }) => ({ body: answer({ perDayCents: (body as { perDayCents: number }).perDayCents, allowOnlyCategories: ['groceries'] }, '$100.00 left today') }),
    });
    const { user } = renderPage(<CardControlsSection cardId={CARD_ID} />, { path: '/my-cards' });
    expect(await screen.findByText('No spending limits')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Edit controls' }));
    await fill(user, screen.getByLabelText(/^Daily limit/), '100');
    await user.selectOptions(screen.getByLabelText(/^Merchant categories/), 'allow_only');
    await user.click(screen.getByLabelText('Groceries'));
    await user.click(screen.getByRole('button', { name: 'Save controls' }));
    expect(await screen.findByText('$100.00 left today')).toBeVisible();
    expect(api.bodiesOf('PUT', URL)).toEqual([
      { perDayCents: 10_000, per30DaysCents: null, perYearCents: null, lifetimeCents: null, perTransactionCents: null, merchantLock: { mode: 'off' }, blockCategories: [], allowOnlyCategories: ['groceries'] },
    ]);
  });

  it("puts the server's refusal on the field it names, and keeps the form open", async () => {
    const message = 'Enter the merchant this card is locked to.';
    fakeApi({
      [`GET ${URL}`]: { body: answer({ merchantLock: { mode: 'named', merchant: 'Shop' } }, null) },
      [`PUT ${URL}`]: { status: 400, body: { error: { code: 'validation_error', message, details: [{ path: '/merchantLock', message }] } } },
    });
    const { user } = renderPage(<CardControlsSection cardId={CARD_ID} />, { path: '/my-cards' });
    await user.click(await screen.findByRole('button', { name: 'Edit controls' }));
    await user.click(screen.getByRole('button', { name: 'Save controls' }));
    const merchant = screen.getByLabelText(/^Merchant$/);
    expect(await screen.findAllByText(message)).not.toHaveLength(0);
    expect(merchant).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('button', { name: 'Save controls' })).toBeVisible();
  });
});
