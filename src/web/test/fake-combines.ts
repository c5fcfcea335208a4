// A small in-memory stand-in for the combine API, for the wizard's component tests. Fees come from
// the core (as on the server); what is not the point of these tests (promo, boosts, tokens) is
// fixed: a boost can be held and chosen, but its waiver of the fee is not figured. Each handler
// answers as the contract in src/contracts/combines.ts says, and the quote, like the server's,
// remembers the review's choices on the draft.
import { bnplSourceFees, cardSourceFees, CREATION_FEE_CENTS, smallestChargeForNet } from '../../core/fees';
import { computeCombineTotal } from '../../core/amount';
import { creationFeeIndexAfterRemoval } from '../../core/wizard-flow';
import type { Combine, CombineSource, CompleteCombineResponse, Quote } from '../../contracts/combines';
import type { FakeRoutes } from './render';

const PPM = 10_000; // Free plan product fee
const NOW = '2026-11-25T10:00:00.000Z';

export type FakeCombines = {
  routes: FakeRoutes;
  combine: () => Combine;
  /** Makes the next pre-authorisation answer 402, as a declined card does. */
  declineNext: () => void;
  /** Makes the next quote answer 503, as an unavailable server does; nothing is remembered. */
  failNextQuote: () => void;
  completed: () => number;
};

type Choices = { useBoost: boolean; creationFeeSourceIdx: number; cardType: 'general' | 'single-use' };

export function fakeCombines(options: { remaining?: number | null; boostsAvailable?: number } = {}): FakeCombines {
  let combine: Combine | null = null;
  let decline = false;
  let failQuote = false;
  const boostsAvailable = options.boostsAvailable ?? 0;
  let completed = 0;
  let nextSource = 1;

  const funding = (c: Pick<Combine, 'totalAmountCents'>, sources: CombineSource[]): Combine['funding'] => {
    const net = sources.reduce((sum, s) => sum + s.netCents, 0);
    const remaining = Math.max(0, c.totalAmountCents - net);
    return {
      productFeePpm: PPM,
      netTotalCents: net,
      remainingToFundCents: remaining,
      overfundCents: Math.max(0, net - c.totalAmountCents),
      canContinue: sources.length > 0 && net >= c.totalAmountCents,
      suggestedChargeCents: {
        card: remaining > 0 ? smallestChargeForNet(remaining, PPM, 'card') : 0,
        bnpl: remaining > 0 ? smallestChargeForNet(remaining, PPM, 'bnpl') : 0,
        internal: remaining > 0 ? smallestChargeForNet(remaining, PPM, 'internal') : 0,
      },
    };
  };

  const current = (): Combine => {
    if (!combine) throw new Error('no combine yet');
    return { ...combine, funding: funding(combine, combine.sources) };
  };

  const quote = (choices: Choices): Quote => {
    const c = current();
    const onCard = choices.creationFeeSourceIdx === -1;
    const sources = c.sources.map((s, index) => {
      const creation = !onCard && index === choices.creationFeeSourceIdx ? CREATION_FEE_CENTS : 0;
      return {
        index,
        sourceId: s.id,
        kind: s.type === 'bnpl' ? ('bnpl' as const) : ('card' as const),
        provider: s.provider,
        chargeCents: s.chargeCents,
        processorFeeCents: s.processorFeeCents,
        productFeeCents: s.productFeeCents,
        netCents: s.netCents,
        bnplFeeMaxCents: s.bnplFeeMaxCents,
        bnplFeeActualCents: s.bnplFeeActualCents,
        rebateCents: s.rebateCents,
        creationFeeCents: creation,
        chargedCents: s.chargeCents + creation,
        oneTimeCardChargeCents: s.oneTimeCardChargeCents,
      };
    });
    const sum = (pick: (s: (typeof sources)[number]) => number) => sources.reduce((total, s) => total + pick(s), 0);
    const net = sum((s) => s.netCents);
    return {
      productFeePpm: PPM,
      promoApplies: false,
      promoClaim: false,
      boostUsed: choices.useBoost && boostsAvailable > 0,
      boost: { available: boostsAvailable, used: 0, usable: boostsAvailable > 0, message: null },
      cardType: choices.cardType,
      totalCents: c.totalAmountCents,
      taxBufferCents: c.taxBufferCents,
      sources,
      productFeeCents: sum((s) => s.productFeeCents),
      processorFeeCents: sum((s) => s.processorFeeCents),
      bnplFeeActualCents: sum((s) => s.bnplFeeActualCents),
      bnplFeeMaxCents: sum((s) => s.bnplFeeMaxCents),
      rebateCents: sum((s) => s.rebateCents),
      creationFeeCents: CREATION_FEE_CENTS,
      creationFeeOnCard: onCard,
      netTotalCents: net,
      totalChargedCents: sum((s) => s.chargedCents),
      cardAmountCents: net - (onCard ? CREATION_FEE_CENTS : 0),
      remainingToFundCents: Math.max(0, c.totalAmountCents - net),
      canContinue: net >= c.totalAmountCents,
    };
  };

  const routes: FakeRoutes = {
    'GET /api/dashboard': () => ({
      body: { combinesThisMonth: { completed: options.remaining === 0 ? 3 : 0, limit: options.remaining === null ? null : 3, remaining: options.remaining === undefined ? 3 : options.remaining } },
    }),
    'GET /api/cards': { body: { cards: [] } },
    'GET /api/config': { body: { demoMode: true, supportEmail: 'support@payweave.example', payAddress: 'pay.payweave.example' } },
    'POST /api/combines': ({ body }) => {
      const input = body as { baseInput: string; bufferInput: string; bufferMode: 'percent' | 'dollars' };
      const total = computeCombineTotal(input);
      if (!total.ok) return { status: 400, body: { error: { code: 'validation_error', message: total.message } } };
      combine = {
        id: 'combine-1',
        status: 'in_progress',
        baseAmountCents: total.baseCents,
        taxBufferCents: total.taxBufferCents,
        totalAmountCents: total.totalCents,
        includeTaxBuffer: total.taxBufferCents > 0,
        ...input,
        currentStep: 2,
        bnplStepCompleted: false,
        bnplCheckoutCompleted: false,
        useBoost: false,
        creationFeeSourceIdx: -1,
        cardType: 'general',
        promoApplied: false,
        promoDiscount: false,
        bnplFeeMaxCents: 0,
        bnplFeeActualCents: 0,
        cardId: null,
        rebateId: null,
        formData: {},
        sources: [],
        card: null,
        rebates: [],
        funding: funding({ totalAmountCents: total.totalCents }, []),
        createdAt: NOW,
        updatedAt: NOW,
        savedAt: null,
        completedAt: null,
        simulated: true,
        testSource: 'MVP-Demo',
        environment: 'test',
      };
      return { status: 201, body: current() };
    },
    'GET /api/combines/combine-1': () => ({ body: current() }),
    'PATCH /api/combines/combine-1': ({ body }) => {
      combine = { ...current(), ...(body as Partial<Combine>) };
      return { body: current() };
    },
    'POST /api/combines/combine-1/sources': ({ body }) => {
      const input = body as { type: string; provider: string; chargeCents: number; cardNumber?: string };
      if (decline) {
        decline = false;
        return { status: 402, body: { error: { code: 'insufficient_funds', message: 'Insufficient funds for pre-authorization' } } };
      }
      const fees = input.type === 'bnpl' ? bnplSourceFees(input.chargeCents, input.provider, PPM) : { ...cardSourceFees(input.chargeCents, PPM), bnplFeeMaxCents: 0, bnplFeeActualCents: 0, rebateCents: 0, oneTimeCardChargeCents: null };
      const c = current();
      const source: CombineSource = {
        id: `src-${nextSource++}`,
        position: c.sources.length,
        type: input.type as CombineSource['type'],
        provider: input.provider,
        brand: input.type === 'bnpl' ? null : input.provider,
        last4: input.cardNumber ? input.cardNumber.slice(-4) : null,
        expMonth: null,
        expYear: null,
        status: 'authorized',
        sourceCardId: null,
        bnplCardBrand: null,
        bnplCardLast4: null,
        ...fees,
      };
      const bnplAdded = input.type === 'bnpl' && !c.sources.some((s) => s.type === 'bnpl');
      combine = { ...c, sources: [...c.sources, source], ...(bnplAdded ? { bnplStepCompleted: false, bnplCheckoutCompleted: false } : {}) };
      return { status: 201, body: current() };
    },
    'DELETE /api/combines/combine-1/sources/*': ({ url }) => {
      const sourceId = url.pathname.split('/')[5];
      const c = current();
      const index = c.sources.findIndex((s) => s.id === sourceId);
      if (index === -1) return { status: 404, body: { error: { code: 'not_found', message: 'Payment source not found.' } } };
      const sources = c.sources.filter((s) => s.id !== sourceId).map((s, position) => ({ ...s, position }));
      combine = { ...c, sources, creationFeeSourceIdx: creationFeeIndexAfterRemoval(c.creationFeeSourceIdx, index) };
      return { body: current() };
    },
    'POST /api/combines/combine-1/sources/*/bnpl-card': ({ url, body }) => {
      const sourceId = url.pathname.split('/')[5];
      const card = body as { cardNumber: string };
      const c = current();
      const sources = c.sources.map((s) => (s.id === sourceId ? { ...s, bnplCardBrand: 'visa', bnplCardLast4: card.cardNumber.replace(/\D/g, '').slice(-4) } : s));
      combine = { ...c, sources, bnplCheckoutCompleted: sources.every((s) => s.type !== 'bnpl' || s.bnplCardLast4 !== null) };
      return { body: current() };
    },
    'POST /api/combines/combine-1/quote': ({ body }) => {
      if (failQuote) {
        failQuote = false;
        return { status: 503, body: { error: { code: 'service_unavailable', message: 'Service unavailable.' } } };
      }
      const { useBoost, creationFeeSourceIdx, cardType } = body as Choices;
      combine = { ...current(), useBoost, creationFeeSourceIdx, cardType };
      return { body: quote({ useBoost, creationFeeSourceIdx, cardType }) };
    },
    'POST /api/combines/combine-1/save': () => {
      combine = { ...current(), status: 'incomplete', savedAt: NOW };
      return { body: current() };
    },
    'POST /api/combines/combine-1/complete': ({ body }) => {
      const request = body as Choices;
      const q = quote(request);
      completed += 1;
      const made = { id: 'card-1', status: 'active', frozen: false, type: request.cardType, last4: '4321', network: 'visa', originalAmountCents: q.cardAmountCents, remainingAmountCents: q.cardAmountCents, amountSpentCents: 0, issuedAt: NOW, promoApplied: false };
      combine = { ...current(), status: 'completed', completedAt: NOW, cardId: made.id, card: made };
      const result: CompleteCombineResponse = {
        combine: current(),
        quote: q,
        promoApplied: false,
        boostEarned: false,
        boostMessage: null,
        card: {
          id: 'card-1',
          type: request.cardType,
          status: 'active',
          network: 'visa',
          last4: '4321',
          maskedNumber: '•••• •••• •••• 4321',
          expMonth: 11,
          expYear: 2027,
          originalAmountCents: q.cardAmountCents,
          remainingAmountCents: q.cardAmountCents,
          issuedAt: NOW,
          validUntil: '2027-11-25T10:00:00.000Z',
          promoApplied: false,
          promoId: null,
        },
      };
      return { status: 201, body: result };
    },
  };
  // Also answer the sources path with a trailing id for the wildcard (DELETE not needed here).
  return { routes, combine: current, declineNext: () => (decline = true), failNextQuote: () => (failQuote = true), completed: () => completed };
}
