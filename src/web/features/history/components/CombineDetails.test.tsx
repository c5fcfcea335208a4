import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { Combine } from '../../../../contracts/combines';
import { CombineDetails } from './CombineDetails';
import { renderPage } from '../../../test/render';

// A completed combine as /history shows it: its figures add up to the card, the $0.10
// card-creation fee included, whichever way it was paid.

function combine(creationFeeSourceIdx: number, overrides: Partial<Combine> = {}): Combine {
  const visaPays = creationFeeSourceIdx === 1;
  return {
    id: 'c-1', status: 'completed', baseAmountCents: 20_000, taxBufferCents: 1_550, totalAmountCents: 21_550, includeTaxBuffer: true,
    baseInput: '200', bufferInput: '15.5', bufferMode: 'dollars', currentStep: 7, bnplStepCompleted: true, bnplCheckoutCompleted: true,
    useBoost: false, creationFeeSourceIdx, cardType: 'general', promoApplied: false, promoDiscount: false, bnplFeeMaxCents: 1_000, bnplFeeActualCents: 300,
    cardId: 'card-1', rebateId: 'r-1', formData: {},
    sources: [
      { id: 's-0', position: 0, type: 'bnpl', provider: 'zip', chargeCents: 10_000, brand: null, last4: null, expMonth: null, expYear: null, status: 'captured', sourceCardId: null, bnplCardBrand: 'visa', bnplCardLast4: '1111', processorFeeCents: 320, productFeeCents: 50, netCents: 9_630, bnplFeeMaxCents: 1_000, bnplFeeActualCents: 300, rebateCents: 700, oneTimeCardChargeCents: 11_000 },
      { id: 's-1', position: 1, type: 'credit', provider: 'visa', chargeCents: 12_371, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2028, status: 'captured', sourceCardId: null, bnplCardBrand: null, bnplCardLast4: null, processorFeeCents: 389, productFeeCents: 62, netCents: 11_920, bnplFeeMaxCents: 0, bnplFeeActualCents: 0, rebateCents: 0, oneTimeCardChargeCents: null },
    ],
    card: { id: 'card-1', status: 'active', frozen: false, type: 'general', last4: '9812', network: 'visa', originalAmountCents: visaPays ? 21_550 : 21_540, remainingAmountCents: 21_540, amountSpentCents: 0, issuedAt: '2026-11-27T12:41:02.769Z', promoApplied: false },
    rebates: [{ id: 'r-1', sourceId: 's-0', bnplFeeMaxCents: 1_000, bnplFeeActualCents: 300, rebateAmountCents: 700, status: 'processed', payoutMethod: 'ach', processedAt: '2026-11-27T12:46:51.454Z' }],
    funding: { productFeePpm: 5_000, netTotalCents: 21_550, remainingToFundCents: 0, overfundCents: 0, canContinue: true, suggestedChargeCents: { card: 0, bnpl: 0, internal: 0 } },
    createdAt: '2026-11-27T12:40:19.249Z', updatedAt: '2026-11-27T12:41:02.769Z', savedAt: null, completedAt: '2026-11-27T12:41:02.769Z',
    simulated: true, testSource: 'MVP-Demo', environment: 'test',
    ...overrides,
  } as Combine;
}

const cells = (name: RegExp) => within(screen.getByRole('row', { name })).getAllByRole('cell').map((cell) => cell.textContent);
const fact = (term: string) => screen.getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;

describe('combine details', () => {
  it('a source that paid the creation fee shows what it was charged, the fee included', () => {
    renderPage(<CombineDetails combine={combine(1)} />);
    // Type, amount charged, fee, to card: $123.71 + $0.10; fees $3.89 + $0.62 + $0.10; $119.20.
    expect(cells(/Visa/)).toEqual(['Credit', '$123.81', '$4.61', '$119.20']);
    expect(cells(/Zip/)).toEqual(['BNPL', '$100.00', '$3.70', '$96.30']);
    expect(fact('Card-creation fee')).toBe('$0.10 added to Visa •••• 4242');
  });

  it('by default the new card paid it: said beside the card amount, which is the sources less $0.10', () => {
    renderPage(<CombineDetails combine={combine(-1)} />);
    expect(cells(/Visa/)).toEqual(['Credit', '$123.71', '$4.51', '$119.20']);
    expect(fact('Card-creation fee')).toBe('$0.10 taken from the new card');
    expect(fact('Card amount')).toBe('$215.40');
  });

  // Decision 167: the spec's promo_applied marks only the combine that claimed the spot; every
  // combine completed while the promo ran got the same 50% off and must not read "Not applied".
  it('says whether the launch promo halved the product fee, and which combine claimed it', () => {
    const { unmount } = renderPage(<CombineDetails combine={combine(-1, { promoApplied: true, promoDiscount: true })} />);
    expect(fact('Promo')).toBe('50% Off Platform Fees, claimed with this card');
    unmount();
    const later = renderPage(<CombineDetails combine={combine(-1, { promoDiscount: true })} />);
    expect(fact('Promo')).toBe('50% Off Platform Fees');
    later.unmount();
    renderPage(<CombineDetails combine={combine(-1)} />);
    expect(fact('Promo')).toBe('Not applied');
  });
});
