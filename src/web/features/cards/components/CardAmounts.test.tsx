import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { CardAmounts } from './CardAmounts';
import { cardFixture } from '../../../test/fixtures';

// docs/rules.md#card-figures: original = spent + remaining, and the details view breaks spent down into
// purchases, cash-outs and use as a source.
describe('card amounts', () => {
  const card = cardFixture({ originalAmountCents: 50_000, amountSpentCents: 30_000, remainingAmountCents: 20_000 });
  const row = (term: string) => screen.getByText(term, { selector: 'dt' }).parentElement!;

  it('shows spent as purchases, cash-outs and use as a source, which add up to it', () => {
    render(<CardAmounts card={card} spending={{ purchasesCents: 5_000, cashoutsCents: 20_000, sourceUseCents: 5_000 }} />);
    expect(within(row('Original')).getByText('$500.00')).toBeVisible();
    expect(within(row('Spent')).getByText('$300.00')).toBeVisible();
    expect(within(row('Purchases')).getByText('$50.00')).toBeVisible();
    expect(within(row('Cash-outs')).getByText('$200.00')).toBeVisible();
    expect(within(row('Used as a source')).getByText('$50.00')).toBeVisible();
    expect(within(row('Remaining')).getByText('$200.00')).toBeVisible();
  });

  it('leaves out the parts that are zero, and the breakdown where it is not given (the card list)', () => {
    const { rerender } = render(<CardAmounts card={card} spending={{ purchasesCents: 30_000, cashoutsCents: 0, sourceUseCents: 0 }} />);
    expect(screen.getByText('Purchases')).toBeVisible();
    expect(screen.queryByText('Cash-outs')).toBeNull();
    rerender(<CardAmounts card={card} />);
    expect(screen.queryByText('Purchases')).toBeNull();
    expect(screen.getAllByRole('term').map((term) => term.textContent)).toEqual(['Original', 'Spent', 'Remaining']);
  });
});
