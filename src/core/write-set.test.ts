// Every money operation's write set against the ledger's rules (docs/rules.md#ledger,
// docs/rules.md#card-figures, docs/rules.md#outside-effects), whichever planner decided it: each
// property runs over generated facts for all five planners, accepted and refused. The generators
// live here, not in a helper module: src/core holds only what the server uses
// (.dependency-cruiser.cjs, server-module-in-use).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { journalSumCents, type CardFacts, type JournalLine } from './money-plan';
import { planCashout, type CashoutFacts } from './plan-cashout';
import { completionQuoteInput, planCompletion, type CompletionFacts, type CompletionSource } from './plan-completion';
import { planPurchase, type PurchaseFacts } from './plan-purchase';
import { planPendingRebatePayouts, type PendingRebatesFacts } from './plan-rebate-payouts';
import { planUpgradePayment, type UpgradeFacts } from './plan-subscription-payment';
import { PLAN_IDS, type BillingCycle, type PayoutMethod, type PlanId } from './plans';
import { quoteCombine } from './quote';
import type { MoneyOperation, MoneyWriteSet } from './write-set';
import { writeSetOfCashout, writeSetOfCompletion, writeSetOfPurchase, writeSetOfRebatePayouts, writeSetOfSubscriptionPayment } from './write-set-of';

const NOW = new Date('2026-06-15T12:00:00Z');
const DAY_MS = 86_400_000;
const daysFromNow = (days: number) => new Date(NOW.getTime() + days * DAY_MS);

type Case =
  | { op: 'completion'; facts: CompletionFacts }
  | { op: 'cashout'; facts: CashoutFacts }
  | { op: 'purchase'; facts: PurchaseFacts }
  | { op: 'rebate_payouts'; facts: PendingRebatesFacts }
  | { op: 'subscription_payment'; facts: UpgradeFacts };

function writeSetOfCase(c: Case): MoneyWriteSet {
  switch (c.op) {
    case 'completion': return writeSetOfCompletion(c.facts, planCompletion(c.facts));
    case 'cashout': return writeSetOfCashout(c.facts, planCashout(c.facts));
    case 'purchase': return writeSetOfPurchase(c.facts, planPurchase(c.facts));
    case 'rebate_payouts': return writeSetOfRebatePayouts(planPendingRebatePayouts(c.facts));
    case 'subscription_payment': return writeSetOfSubscriptionPayment(planUpgradePayment(c.facts));
  }
}

const plans = fc.constantFrom<PlanId>(...PLAN_IDS);
const methods = fc.constantFrom<PayoutMethod>('ach', 'paypal', 'cashapp');
const payTo = fc.option(fc.record({ method: methods, destination: fc.constantFrom('dest_1', 'dest_2') }), { nil: null });
/** Mostly usable, so that accepted plans are common; sometimes frozen, expired or emptied. */
const ownCard = fc.record({
  remaining: fc.oneof(fc.integer({ min: 0, max: 2_500_000 }), fc.constant(4_000_000)),
  frozen: fc.constantFrom(false, false, false, true),
  status: fc.constantFrom('active', 'active', 'active', 'expired', 'cashed_out'),
  validDays: fc.integer({ min: -5, max: 365 }),
});
const charge = fc.integer({ min: 1, max: 2_000_000 });
const sourceSpec = fc.oneof(
  fc.record({ kind: fc.constant('card' as const), charge }),
  fc.record({ kind: fc.constant('bnpl' as const), charge, provider: fc.constantFrom('affirm', 'klarna', 'zip', 'afterpay') }),
  // Two own cards per combine, so one is sometimes a source twice (charged once for both).
  fc.record({ kind: fc.constant('internal' as const), charge, card: fc.constantFrom(0, 1) }),
);

type SourceSpec = { kind: 'card'; charge: number } | { kind: 'bnpl'; charge: number; provider: string } | { kind: 'internal'; charge: number; card: number };

function completionSource(spec: SourceSpec, index: number): CompletionSource {
  const none = { sourceCardId: null, authorizationId: null, bnplTransactionId: null, bnplCardToken: null };
  const id = `source-${index}`;
  if (spec.kind === 'card') return { ...none, id, type: 'credit', provider: 'visa', chargeCents: spec.charge, authorizationId: `auth-${index}` };
  if (spec.kind === 'bnpl') return { ...none, id, type: 'bnpl', provider: spec.provider, chargeCents: spec.charge, bnplTransactionId: `bnpl-${index}`, bnplCardToken: 'tok' };
  return { ...none, id, type: 'internal', provider: 'payweave', chargeCents: spec.charge, sourceCardId: `own-${spec.card}` };
}

const completionCase = fc
  .record({
    specs: fc.array(sourceSpec, { minLength: 1, maxLength: 4 }),
    cards: fc.tuple(ownCard, ownCard),
    plan: plans,
    promo: fc.boolean(),
    promoSpotsLeft: fc.constantFrom(0, 0, 3),
    useBoost: fc.boolean(),
    feeIndex: fc.integer({ min: -1, max: 3 }),
    fundedPercent: fc.constantFrom(90, 100, 100, 101),
    status: fc.constantFrom('in_progress', 'in_progress', 'incomplete', 'completed'),
    completedThisMonth: fc.constantFrom(0, 0, 0, 3),
    reviewedOther: fc.constantFrom(false, false, false, false, true),
    rebatePayout: payTo,
  })
  .map((g): Case => {
    const sources = g.specs.map(completionSource);
    const sourceCards: CardFacts[] = g.cards.map((card, i) => ({
      id: `own-${i}`, status: card.status, frozen: card.frozen, validUntil: daysFromNow(card.validDays), remainingAmountCents: card.remaining, last4: '4242',
    }));
    const base: CompletionFacts = {
      now: NOW,
      combine: { id: 'combine-1', status: g.status, totalAmountCents: 1, taxBufferCents: 0, createdAt: NOW },
      sources,
      sourceCards,
      user: { plan: g.plan, boostsAvailable: 1, boostsUsed: 0, combineTotal: 2, promoEnd: g.promo ? daysFromNow(30) : daysFromNow(-30), hasPromo: g.promo },
      completedThisMonth: g.completedThisMonth,
      promoSpotsLeft: g.promoSpotsLeft,
      choices: { useBoost: g.useBoost, creationFeeSourceIdx: Math.min(g.feeIndex, sources.length - 1), cardType: 'general' },
      expected: { cardAmountCents: 0, totalChargedCents: 0, productFeeCents: 0 },
      newCard: { id: 'new-card', last4: '1111' },
      rebatePayout: g.rebatePayout,
    };
    // A total the sources' nets cover (up to 100% of them) or not (101%): the planner refuses the latter.
    const quoteFor = (f: CompletionFacts) => {
      const { promoClaim: _claim, ...input } = completionQuoteInput(f, g.useBoost, f.choices.creationFeeSourceIdx);
      return quoteCombine(input);
    };
    const netTotal = quoteFor({ ...base, combine: { ...base.combine, totalAmountCents: 0 } }).netTotalCents;
    const facts = { ...base, combine: { ...base.combine, totalAmountCents: Math.max(1, Math.floor((netTotal * g.fundedPercent) / 100)) } };
    const quote = quoteFor(facts);
    // As a client sends the figures it reviewed: the quote's, or others (refused: quote_changed).
    const expected = { cardAmountCents: quote.cardAmountCents, totalChargedCents: quote.totalChargedCents, productFeeCents: quote.productFeeCents + (g.reviewedOther ? 1 : 0) };
    return { op: 'completion', facts: { ...facts, expected } };
  });

const cashoutCase = fc
  .record({
    plan: plans,
    method: methods,
    promo: fc.boolean(),
    amount: fc.integer({ min: 1, max: 2_000_000 }),
    saved: fc.oneof(
      { weight: 3, arbitrary: fc.constant({ ach: 'dest_ach', paypal: 'dest_paypal', cashapp: 'dest_cashapp' }) },
      { weight: 1, arbitrary: fc.dictionary(methods, fc.option(fc.constant('dest_x'), { nil: null })) },
    ),
    card: fc.option(fc.record({ own: ownCard, spent: fc.integer({ min: 0, max: 1_000_000 }) }), { nil: null, freq: 10 }),
  })
  .map(({ plan, method, promo, amount, saved, card }): Case => ({
    op: 'cashout',
    facts: {
      request: { cardId: 'card-1', amountCents: amount, payoutMethod: method },
      plan,
      promoEnd: promo ? daysFromNow(30) : null,
      savedMethods: saved,
      card: card && { status: card.own.status, frozen: card.own.frozen, remainingAmountCents: card.own.remaining, amountSpentCents: card.spent, last4: '4242' },
      now: NOW,
    },
  }));

const purchaseCase = fc
  .record({ own: ownCard, type: fc.constantFrom('general', 'single-use'), amount: fc.integer({ min: 1, max: 2_500_000 }) })
  .map(({ own, type, amount }): Case => ({
    op: 'purchase',
    facts: { card: { id: 'card-1', type, status: own.status, frozen: own.frozen, validUntil: daysFromNow(own.validDays), remainingAmountCents: own.remaining }, amountCents: amount, merchant: 'Shop', now: NOW },
  }));

const rebatePayoutsCase = fc
  .record({ amounts: fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 1_000_000 })), { maxLength: 6 }), payTo })
  .map(({ amounts, payTo }): Case => ({ op: 'rebate_payouts', facts: { pending: amounts.map((amountCents, i) => ({ id: `rebate-${i}`, amountCents })), payTo } }));

const subscriptionCase = fc
  .record({ from: plans, to: plans, cycle: fc.constantFrom<BillingCycle>('monthly', 'yearly'), months: fc.nat(120) })
  .map(({ from, to, cycle, months }): Case => ({
    op: 'subscription_payment',
    facts: { subscriber: { plan: from, loyaltyDiscountMonths: months }, request: { plan: to, billingCycle: cycle }, now: NOW },
  }));

// The completion has the most ways to refuse and to move money: it is drawn twice as often.
const anyCase = fc.oneof({ weight: 2, arbitrary: completionCase }, cashoutCase, purchaseCase, rebatePayoutsCase, subscriptionCase);

/** The card's remaining in the facts the plan was made from. */
function remainingInFacts(c: Case, cardId: string): number | undefined {
  if (c.op === 'completion') return c.facts.sourceCards.find((card) => card.id === cardId)?.remainingAmountCents;
  if (c.op === 'cashout') return cardId === c.facts.request.cardId ? c.facts.card?.remainingAmountCents : undefined;
  if (c.op === 'purchase') return cardId === c.facts.card.id ? c.facts.card.remainingAmountCents : undefined;
  return undefined;
}

/** The holds a completion's outside sources put on money when they were added, one id each. */
function holdsOf(c: Case): string[] {
  if (c.op !== 'completion') return [];
  return c.facts.sources.filter((s) => s.type !== 'internal').flatMap((s) => [s.authorizationId, s.bnplTransactionId].filter((id): id is string => id !== null));
}

const sumCents = (amounts: readonly number[]) => amounts.reduce((sum, cents) => sum + cents, 0);
const linesOf = (ws: MoneyWriteSet): JournalLine[] => ws.journals.flatMap((journal) => journal.lines);
const onCard = (cardId: string) => (line: JournalLine) => 'card' in line.account && line.account.card === cardId;
const onSystem = (name: string) => (line: JournalLine) => 'system' in line.account && line.account.system === name;
const centsOn = (ws: MoneyWriteSet, on: (line: JournalLine) => boolean) => sumCents(linesOf(ws).filter(on).map((line) => line.amountCents));
const isWholeCents = (cents: number) => Number.isSafeInteger(cents) && cents > 0;

/** Runs `rule` on the write set of every generated case; enough runs that each operation is planned and refused often. */
function holdsForEveryOperation(rule: (c: Case, ws: MoneyWriteSet) => void): void {
  fc.assert(fc.property(anyCase, (c) => rule(c, writeSetOfCase(c))), { numRuns: 3_000 });
}

describe('every money operation, as a write set (fast-check over the five planners)', () => {
  it('the generated facts reach every operation, planned and refused, so no property below holds vacuously', () => {
    const tally = new Map<string, number>();
    const count = (key: string) => tally.set(key, (tally.get(key) ?? 0) + 1);
    for (const c of fc.sample(anyCase, { numRuns: 3_000, seed: 186 })) {
      const ws = writeSetOfCase(c);
      count(`${c.op} ${ws.accepted ? 'planned' : 'refused'}`);
      if (ws.cardDebits.length > 0) count(`${c.op} debits a card`);
      if (ws.rebatesPaid.some((r) => r.amountCents > 0)) count(`${c.op} pays a rebate`);
      if (ws.rebatesPaid.some((r) => r.amountCents === 0)) count(`${c.op} settles a zero rebate`);
    }
    const wanted = [
      'completion planned', 'completion refused', 'completion debits a card', 'completion pays a rebate',
      'cashout planned', 'cashout refused', 'purchase planned', 'purchase refused',
      'rebate_payouts planned', 'rebate_payouts pays a rebate', 'rebate_payouts settles a zero rebate',
      'subscription_payment planned', 'subscription_payment refused',
    ];
    // With a fixed seed the tally is the same every run; 30 leaves room for the planners to change.
    expect(wanted.filter((key) => (tally.get(key) ?? 0) < 30)).toEqual([]);
  });

  it('a refusal writes nothing and sends nothing', () => {
    holdsForEveryOperation((_c, ws) => {
      if (ws.accepted) return;
      expect([ws.cardDebits, ws.cardsIssued, ws.journals, ws.rebatesOwed, ws.rebatesPaid, ws.effects]).toEqual([[], [], [], [], [], []]);
    });
  });

  it('every journal balances: two lines or more, whole non-zero cents, summing to zero; one for the operation and one per rebate it pays', () => {
    holdsForEveryOperation((_c, ws) => {
      if (!ws.accepted) return;
      for (const journal of ws.journals) {
        expect(journal.lines.length).toBeGreaterThanOrEqual(2);
        for (const line of journal.lines) expect(Number.isSafeInteger(line.amountCents) && line.amountCents !== 0).toBe(true);
        expect(journalSumCents(journal.lines)).toBe(0);
      }
      // A pending rebates' payment is no money movement of its own; a zero rebate moves nothing.
      const own = ws.operation === 'rebate_payouts' ? 0 : 1;
      expect(ws.journals).toHaveLength(own + ws.rebatesPaid.filter((r) => r.amountCents > 0).length);
    });
  });

  it('no card goes below zero: each debited card holds what it is debited, in the facts, and is debited once', () => {
    holdsForEveryOperation((c, ws) => {
      for (const { debit, remainingBeforeCents, remainingAfterCents } of ws.cardDebits) {
        expect(isWholeCents(debit.amountCents)).toBe(true);
        expect(remainingBeforeCents).toBe(remainingInFacts(c, debit.cardId));
        expect(remainingAfterCents).toBe(remainingBeforeCents - debit.amountCents);
        expect(remainingAfterCents).toBeGreaterThanOrEqual(0);
      }
      // One guarded debit per card decides everything the card pays, so two cannot both pass on one balance.
      const debited = ws.cardDebits.map((d) => d.debit.cardId);
      expect(new Set(debited).size).toBe(debited.length);
      for (const card of ws.cardsIssued) expect(isWholeCents(card.originalCents) && card.remainingCents >= 0).toBe(true);
    });
  });

  it('original = spent + remaining for every card touched (docs/rules.md#card-figures): a debit adds to spent what it takes off remaining', () => {
    holdsForEveryOperation((_c, ws) => {
      for (const card of ws.cardsIssued) expect(card.spentCents + card.remainingCents).toBe(card.originalCents);
      for (const d of ws.cardDebits) expect(d.spentAddedCents).toBe(d.remainingBeforeCents - d.remainingAfterCents);
    });
  });

  // The rule as the planners keep it (docs/rules.md#outside-effects,
  // docs/decisions/111-every-outside-step-counted-and-breakable.md): an accepted cash-out, one payout;
  // a completed combine, one capture per hold its outside sources placed (a card source's
  // authorization, a BNPL one-time card's transaction); wherever a rebate is paid, one payout per
  // rebate that moves money (a zero one is settled without). A demo purchase pays a merchant inside
  // the demo, and an upgrade's payment card is an outside one that demo mode validates and forgets
  // (docs/decisions/008-cashout-payouts-and-subscriptions.md): neither sends anything.
  it('one outside effect per thing sent: a payout per cash-out, a capture per hold, a payout per rebate paid; none for a purchase or an upgrade', () => {
    const kinds = ['capture', 'payout', 'rebate_payout'] as const;
    holdsForEveryOperation((c, ws) => {
      if (!ws.accepted) return;
      const paid = ws.rebatesPaid.filter((r) => r.amountCents > 0);
      const expected: Record<MoneyOperation, Record<(typeof kinds)[number], number>> = {
        completion: { capture: holdsOf(c).length, payout: 0, rebate_payout: paid.length },
        cashout: { capture: 0, payout: 1, rebate_payout: 0 },
        purchase: { capture: 0, payout: 0, rebate_payout: 0 },
        rebate_payouts: { capture: 0, payout: 0, rebate_payout: paid.length },
        subscription_payment: { capture: 0, payout: 0, rebate_payout: 0 },
      };
      expect(Object.fromEntries(kinds.map((kind) => [kind, ws.effects.filter((e) => e.kind === kind).length]))).toEqual(expected[ws.operation]);
      const captured = ws.effects.flatMap((e) => (e.kind === 'capture' ? [e.authorizationId] : []));
      expect(captured.sort()).toEqual(holdsOf(c).sort());
      const rebatePayouts = ws.effects.flatMap((e) => (e.kind === 'rebate_payout' ? [{ rebate: e.rebate, amountCents: e.amountCents }] : []));
      expect(rebatePayouts).toEqual(paid);
      for (const effect of ws.effects) {
        expect(isWholeCents(effect.amountCents)).toBe(true);
        // Paid out only to a destination the payout provider registered
        // (docs/decisions/172-payouts-only-to-registered-destinations.md).
        if (effect.kind !== 'capture') expect(effect.destination).toBeTruthy();
      }
    });
  });

  it('money is conserved: what leaves cards enters system accounts, payouts send what the journals pay out, captures take what outside sources are charged', () => {
    holdsForEveryOperation((_c, ws) => {
      if (!ws.accepted) return;
      const cardIds = new Set([...ws.cardDebits.map((d) => d.debit.cardId), ...ws.cardsIssued.map((card) => card.cardId)]);
      for (const line of linesOf(ws)) if ('card' in line.account) expect(cardIds).toContain(line.account.card);
      for (const cardId of cardIds) {
        const issued = sumCents(ws.cardsIssued.filter((card) => card.cardId === cardId).map((card) => card.originalCents));
        const debited = sumCents(ws.cardDebits.filter((d) => d.debit.cardId === cardId).map((d) => d.debit.amountCents));
        expect(centsOn(ws, onCard(cardId))).toBe(issued - debited);
      }
      const cardCents = sumCents(linesOf(ws).filter((line) => 'card' in line.account).map((line) => line.amountCents));
      const systemCents = sumCents(linesOf(ws).filter((line) => 'system' in line.account).map((line) => line.amountCents));
      expect(cardCents + systemCents).toBe(0);
      const sent = sumCents(ws.effects.filter((e) => e.kind !== 'capture').map((e) => e.amountCents));
      expect(centsOn(ws, onSystem('payouts'))).toBe(sent);
      const owed = sumCents(ws.rebatesOwed.map((r) => r.amountCents)) - sumCents(ws.rebatesPaid.map((r) => r.amountCents));
      expect(centsOn(ws, onSystem('rebatesPayable'))).toBe(owed);
      // Except an upgrade's, whose outside card demo mode does not capture
      // (docs/decisions/008-cashout-payouts-and-subscriptions.md).
      if (ws.operation !== 'subscription_payment') {
        const captured = sumCents(ws.effects.filter((e) => e.kind === 'capture').map((e) => e.amountCents));
        expect(captured + centsOn(ws, onSystem('fundingSources'))).toBe(0);
      }
    });
  });
});
