import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { insertFundedCard, insertPayoutMethod } from '../../../../tests/helpers/fixtures';
import { createCard, PAYOUT_DETAILS, registerUser, type ApiUser } from '../../../../tests/helpers/api-client';
import { cards, idempotencyKeys, journalEntries, ledgerAccounts, moneyEffects, payoutMethods, transactions, users } from '../../db/schema';
import { checkLedger } from '../../ledger/check-ledger';
import { SYSTEM_ACCOUNTS } from '../../ledger/accounts';
import { rowsOf } from '../../ledger/post-journal';

type Signed = ApiUser & { id: string };

/** A user with `methods` saved, each with a registered destination (a cash-out is paid only to one, decision 172). */
async function signUp(t: TestApp, profile: Partial<typeof users.$inferInsert> = {}, methods: ReadonlyArray<keyof typeof PAYOUT_DETAILS> = ['ach']): Promise<Signed> {
  const user = await registerUser(t.app);
  const me = await user.request('GET', '/api/me');
  const id = me.json().id as string;
  if (Object.keys(profile).length > 0) await t.database.db.update(users).set(profile).where(eq(users.id, id));
  for (const method of methods) await insertPayoutMethod(t.database.db, id, method);
  return Object.assign(user, { id });
}

function cashout(user: ApiUser, body: Record<string, unknown>, key: string = randomUUID()) {
  return user.request('POST', '/api/cashouts', body, { 'idempotency-key': key });
}

async function cardRow(t: TestApp, cardId: string) {
  const [row] = await t.database.db.select().from(cards).where(eq(cards.id, cardId));
  return row!;
}

/** Sum of a system account's entries (only card accounts keep a cached balance). */
async function systemBalance(t: TestApp, code: string): Promise<number> {
  const result = await t.database.db.execute(
    sql`select coalesce(sum(e.amount_cents), 0)::text as total from journal_entries e join ledger_accounts a on a.id = e.account_id where a.code = ${code}`,
  );
  return Number(rowsOf<{ total: string }>(result)[0]?.total ?? 0);
}

describe('cash-out API', () => {
  let t: TestApp;
  /** Payouts the provider made for each cash-out row, once every committed one has been sent. */
  async function payoutsFor(rows: Array<{ id: string }>): Promise<number[]> {
    await t.app.effects.drain();
    return rows.map((row) => t.calls.effective('payouts.send').filter((call) => call.reference === `cashout:${row.id}`).length);
  }
  /** Every call the payout provider received for this card's cash-outs (retries included). */
  async function payoutCallsFor(_cardId: string, rows: Array<{ id: string }>): Promise<number> {
    const references = new Set(rows.map((row) => `cashout:${row.id}`));
    return t.calls.calls.filter((call) => call.op === 'payouts.send' && references.has(call.reference)).length;
  }
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterEach(async () => {
    // docs/rules.md#ledger: after every money test the ledger still balances and matches every card.
    if (t) expect((await checkLedger(t.database.db)).problems).toEqual([]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('docs/rules.md#fee-examples: $123.45 on Free costs a $1.23 fee and pays out $122.22', async () => {
    const user = await signUp(t);
    const cardId = await insertFundedCard(t.database.db, user.id, 50_000);
    const res = await cashout(user, { cardId, amountCents: 12_345, payoutMethod: 'ach' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      success: true,
      feeRatePpm: 10_000,
      cashout: { type: 'cashout', cardId, amountCents: 12_345, feeCents: 123, netAmountCents: 12_222, payoutMethod: 'ach', status: 'success', simulated: true, testSource: 'MVP-Demo', environment: 'test' },
      card: { id: cardId, status: 'active', remainingAmountCents: 37_655, amountSpentCents: 12_345 },
    });
    // The payout's reference: the provider is called with it after the commit (docs/rules.md#outside-effects).
    expect(body.payoutId).toBe(`cashout:${body.cashout.id}`);
    await t.app.effects.drain();
    expect(t.calls.effective('payouts.send').filter((call) => call.reference === body.payoutId)).toEqual([
      expect.objectContaining({ amountCents: 12_222, outcome: 'done' }),
    ]);
    const [row] = await t.database.db.select().from(transactions).where(eq(transactions.id, body.cashout.id));
    expect(row).toMatchObject({ type: 'cashout', amountCents: 12_345, feeCents: 123, netAmountCents: 12_222, payoutMethod: 'ach', status: 'success' });
    expect(row!.journalId).toBeTruthy();
    expect((await cardRow(t, cardId)).remainingAmountCents).toBe(37_655);
  });

  it('the journal moves the card amount to payouts (net) and cash-out fee revenue (fee)', async () => {
    const user = await signUp(t);
    const cardId = await insertFundedCard(t.database.db, user.id, 10_000);
    const payoutsBefore = await systemBalance(t, SYSTEM_ACCOUNTS.payouts);
    const feesBefore = await systemBalance(t, SYSTEM_ACCOUNTS.cashoutFeeRevenue);
    expect((await cashout(user, { cardId, amountCents: 10_000, payoutMethod: 'ach' })).statusCode).toBe(201);
    expect((await systemBalance(t, SYSTEM_ACCOUNTS.payouts)) - payoutsBefore).toBe(9_900);
    expect((await systemBalance(t, SYSTEM_ACCOUNTS.cashoutFeeRevenue)) - feesBefore).toBe(100);
    const [account] = await t.database.db.select().from(ledgerAccounts).where(eq(ledgerAccounts.code, `card:${cardId}`));
    expect(account!.balanceCents).toBe(0);
  });

  it('the premium and promo rates: 0.5%, and halved while the promo runs (docs/rules.md#product-fee-rate table)', async () => {
    const premium = await signUp(t, { subscription: 'premium' });
    const card1 = await insertFundedCard(t.database.db, premium.id, 50_000);
    expect((await cashout(premium, { cardId: card1, amountCents: 12_345, payoutMethod: 'ach' })).json().cashout.feeCents).toBe(62);
    const promoEnd = new Date(Date.now() + 30 * 86_400_000);
    const premiumPromo = await signUp(t, { subscription: 'premium', promo50offFirstYear: true, promoEnd });
    const card2 = await insertFundedCard(t.database.db, premiumPromo.id, 50_000);
    expect((await cashout(premiumPromo, { cardId: card2, amountCents: 12_345, payoutMethod: 'ach' })).json().cashout).toMatchObject({ feeCents: 31, netAmountCents: 12_314 });
    const plusPromo = await signUp(t, { subscription: 'premium+', promo50offFirstYear: true, promoEnd }, ['cashapp']);
    const card3 = await insertFundedCard(t.database.db, plusPromo.id, 50_000);
    expect((await cashout(plusPromo, { cardId: card3, amountCents: 12_345, payoutMethod: 'cashapp' })).json().cashout).toMatchObject({ feeCents: 15, netAmountCents: 12_330 });
  });

  it('PayPal is refused on Free and allowed on Premium (docs/rules.md#plans, enforced by the server)', async () => {
    // PayPal saved (before a plan ended, say): the plan's rule is what refuses it on Free.
    const user = await signUp(t, {}, ['paypal']);
    const cardId = await insertFundedCard(t.database.db, user.id, 10_000);
    const refused = await cashout(user, { cardId, amountCents: 1_000, payoutMethod: 'paypal' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({ code: 'payout_method_not_allowed', message: 'PayPal payouts are not available on the Free plan.' });
    const cashApp = await cashout(user, { cardId, amountCents: 1_000, payoutMethod: 'cashapp' });
    expect(cashApp.statusCode).toBe(403);
    expect((await cardRow(t, cardId)).remainingAmountCents).toBe(10_000);

    await t.database.db.update(users).set({ subscription: 'premium' }).where(eq(users.id, user.id));
    const allowed = await cashout(user, { cardId, amountCents: 1_000, payoutMethod: 'paypal' });
    expect(allowed.statusCode).toBe(201);
    expect(allowed.json().cashout).toMatchObject({ payoutMethod: 'paypal', feeCents: 5, netAmountCents: 995 });
    expect((await cashout(user, { cardId, amountCents: 1_000, payoutMethod: 'cashapp' })).statusCode).toBe(403);
  });

  it("with saved methods, only those the plan allows can be used, and last_used moves", async () => {
    const user = await signUp(t, { subscription: 'premium' }, []);
    const cardId = await insertFundedCard(t.database.db, user.id, 10_000);
    const added = await user.request('POST', '/api/payout-methods', PAYOUT_DETAILS.paypal);
    expect(added.statusCode).toBe(201);
    const ach = await cashout(user, { cardId, amountCents: 500, payoutMethod: 'ach' });
    expect(ach.statusCode).toBe(403);
    expect(ach.json().error).toMatchObject({ code: 'payout_method_not_saved', message: 'ACH is not one of your payout methods. Add it in Account Settings → Payout Methods first.' });
    const before = (await t.database.db.select().from(payoutMethods).where(eq(payoutMethods.userId, user.id)))[0]!.lastUsed!;
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await cashout(user, { cardId, amountCents: 500, payoutMethod: 'paypal' })).statusCode).toBe(201);
    const after = (await t.database.db.select().from(payoutMethods).where(and(eq(payoutMethods.userId, user.id), eq(payoutMethods.method, 'paypal'))))[0]!.lastUsed!;
    expect(after.getTime()).toBeGreaterThan(before.getTime());
  });

  // Decision 172: a payout goes only to a destination the payout provider knows. A method without
  // one is refused before any money moves and before any outside call; the user enters its details
  // once (POST /api/payout-methods, which registers them) and cashes out.
  describe('a payout method without a registered destination (decision 172)', () => {
    /** Everything a cash-out writes, for this user and card. */
    async function written(userId: string, cardId: string) {
      const db = t.database.db;
      const [entries] = await db
        .select({ count: sql<string>`count(*)` })
        .from(journalEntries)
        .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, journalEntries.accountId))
        .where(eq(ledgerAccounts.code, `card:${cardId}`));
      return {
        card: await cardRow(t, cardId),
        cardEntries: Number(entries?.count ?? 0),
        transactions: await db.select().from(transactions).where(eq(transactions.cardId, cardId)),
        effects: await db.select().from(moneyEffects).where(eq(moneyEffects.userId, userId)),
        keys: await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.userId, userId)),
        methods: await db.select().from(payoutMethods).where(eq(payoutMethods.userId, userId)),
      };
    }
    const payoutCalls = () => t.calls.calls.filter((call) => call.op.startsWith('payouts.')).length;

    it('saved without details: 409 and nothing written or called, the key freed; its details entered (200), the same key cashes out to the destination registered', async () => {
      const user = await signUp(t, {}, []);
      const cardId = await insertFundedCard(t.database.db, user.id, 10_000);
      // An API client older than payout details: the method is saved, with no destination.
      const bare = await user.request('POST', '/api/payout-methods', { method: 'ach' });
      expect(bare.statusCode).toBe(201);
      expect(bare.json().methods).toMatchObject([{ method: 'ach', detail: null, needsDetails: true }]);
      expect((await user.request('GET', '/api/me')).json().payoutMethods).toMatchObject([{ method: 'ach', needsDetails: true }]);
      await t.app.effects.drain();
      const before = await written(user.id, cardId);
      const callsBefore = payoutCalls();

      const key = randomUUID();
      const refused = await cashout(user, { cardId, amountCents: 2_500, payoutMethod: 'ach' }, key);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toMatchObject({
        code: 'payout_method_needs_details',
        message: 'We need your ACH details again before we can pay to it. Enter them in Account Settings → Payout Methods, or on the cash-out form, then try again. Nothing was cashed out.',
      });
      // Nothing moved: balance, journal, transaction, outbox, the key, the method's last use.
      expect(await written(user.id, cardId)).toEqual(before);
      expect(before).toMatchObject({ card: { remainingAmountCents: 10_000, amountSpentCents: 0 }, cardEntries: 1, transactions: [], effects: [], keys: [] });
      await t.app.effects.drain();
      expect(payoutCalls()).toBe(callsBefore);

      // The details, entered for the saved method: registered, and kept (200, not a new method).
      const entered = await user.request('POST', '/api/payout-methods', PAYOUT_DETAILS.ach);
      expect(entered.statusCode, entered.body).toBe(200);
      expect(entered.json()).toMatchObject({ message: 'ACH details saved', preferredPayout: 'ach', methods: [{ method: 'ach', detail: '•••• 6789', needsDetails: false, preferred: true }] });
      const [method] = await t.database.db.select().from(payoutMethods).where(eq(payoutMethods.userId, user.id));
      expect(method!.destinationRef).toMatch(/^demo_dest_/);
      expect(method!.createdAt).toEqual(before.methods[0]!.createdAt);
      // Once it has its details, sending them again is the usual 409 (change them by removing it first).
      expect((await user.request('POST', '/api/payout-methods', PAYOUT_DETAILS.ach)).json().error.code).toBe('already_added');

      const paid = await cashout(user, { cardId, amountCents: 2_500, payoutMethod: 'ach' }, key);
      expect(paid.statusCode, paid.body).toBe(201);
      expect(paid.headers['idempotent-replayed']).toBeUndefined();
      expect((await cardRow(t, cardId)).remainingAmountCents).toBe(7_500);
      await t.app.effects.drain();
      await t.app.effects.idle();
      expect(t.calls.effective('payouts.send').filter((call) => call.reference === paid.json().payoutId).map((call) => call.destination)).toEqual([method!.destinationRef]);
    });

    it('never saved (none is, decision 008): 409 saying to add it with its details; saved with them, the cash-out goes', async () => {
      const user = await signUp(t, { subscription: 'premium' }, []);
      const cardId = await insertFundedCard(t.database.db, user.id, 10_000);
      const refused = await cashout(user, { cardId, amountCents: 1_000, payoutMethod: 'paypal' });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toMatchObject({
        code: 'payout_method_needs_details',
        message: 'Add PayPal with its details first, in Account Settings → Payout Methods or on the cash-out form, then try again. Nothing was cashed out.',
      });
      expect(await written(user.id, cardId)).toMatchObject({ card: { remainingAmountCents: 10_000 }, transactions: [], effects: [], keys: [], methods: [] });
      expect((await user.request('POST', '/api/payout-methods', PAYOUT_DETAILS.paypal)).statusCode).toBe(201);
      const paid = await cashout(user, { cardId, amountCents: 1_000, payoutMethod: 'paypal' });
      expect(paid.statusCode, paid.body).toBe(201);
      expect(paid.json().cashout).toMatchObject({ payoutMethod: 'paypal', netAmountCents: 995 });
    });

    it('the method is refused before the card is looked at: a stranger learns nothing of the card', async () => {
      const owner = await signUp(t);
      const cardId = await insertFundedCard(t.database.db, owner.id, 10_000, { frozen: true });
      const stranger = await signUp(t, {}, []);
      const res = await cashout(stranger, { cardId, amountCents: 1_000, payoutMethod: 'ach' });
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('payout_method_needs_details');
      expect((await cardRow(t, cardId)).remainingAmountCents).toBe(10_000);
    });
  });

  it('docs/rules.md#card-figures: a cash-out counts toward amount_spent, so original = spent + remaining (with purchases beside it)', async () => {
    const user = await signUp(t);
    const cardId = await insertFundedCard(t.database.db, user.id, 10_000);
    const purchase = await user.request('POST', `/api/cards/${cardId}/purchases`, { merchant: 'Coffee', amountCents: 1_000 }, { 'idempotency-key': randomUUID() });
    expect(purchase.statusCode, purchase.body).toBe(201);
    const res = await cashout(user, { cardId, amountCents: 2_000, payoutMethod: 'ach' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().card).toMatchObject({ remainingAmountCents: 7_000, amountSpentCents: 3_000 });
    expect(await cardRow(t, cardId)).toMatchObject({ originalAmountCents: 10_000, amountSpentCents: 3_000, remainingAmountCents: 7_000 });
    const listed = (await user.request('GET', '/api/cards')).json().cards.find((c: { id: string }) => c.id === cardId);
    expect(listed).toMatchObject({ originalAmountCents: 10_000, amountSpentCents: 3_000, remainingAmountCents: 7_000 });
    // The details view's breakdown of spent: purchases, cash-outs, use as a source.
    const details = await user.request('GET', `/api/cards/${cardId}/transactions`);
    expect(details.json().spending).toEqual({ purchasesCents: 1_000, cashoutsCents: 2_000, sourceUseCents: 0 });
  });

  it('docs/rules.md#cashout-fee: the cash-out fee is never below $0.01 (0.125% of $3.99 would round to nothing)', async () => {
    const user = await signUp(t, { subscription: 'premium+', promoEnd: new Date(Date.now() + 86_400_000), promo50offFirstYear: true });
    const cardId = await insertFundedCard(t.database.db, user.id, 1_000);
    const res = await cashout(user, { cardId, amountCents: 399, payoutMethod: 'ach' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ feeRatePpm: 1_250, cashout: { amountCents: 399, feeCents: 1, netAmountCents: 398 } });
    const [row] = await t.database.db.select().from(transactions).where(eq(transactions.cardId, cardId));
    expect(row).toMatchObject({ feeCents: 1, netAmountCents: 398 });
    expect(await payoutsFor([row!])).toEqual([1]);
    expect(t.calls.effective('payouts.send').find((call) => call.reference === `cashout:${row!.id}`)).toMatchObject({ amountCents: 398 });
    expect(await systemBalance(t, SYSTEM_ACCOUNTS.cashoutFeeRevenue)).toBeGreaterThanOrEqual(1);
  });

  it('a cash-out of $0.01 would pay out nothing after its $0.01 fee: refused with the reason, nothing taken or sent', async () => {
    const user = await signUp(t);
    const cardId = await insertFundedCard(t.database.db, user.id, 1_000);
    const res = await cashout(user, { cardId, amountCents: 1, payoutMethod: 'ach' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'validation_error', message: 'The smallest cash-out is $0.02: the fee is at least $0.01.' });
    expect(await cardRow(t, cardId)).toMatchObject({ remainingAmountCents: 1_000, amountSpentCents: 0 });
    expect(await t.database.db.select().from(transactions).where(eq(transactions.cardId, cardId))).toEqual([]);
  });

  it('cashing out the rest empties the card, which becomes cashed_out; nothing more can be taken', async () => {
    const user = await signUp(t);
    const cardId = await insertFundedCard(t.database.db, user.id, 20_000);
    expect((await cashout(user, { cardId, amountCents: 5_000, payoutMethod: 'ach' })).json().card).toMatchObject({ status: 'active', remainingAmountCents: 15_000 });
    const over = await cashout(user, { cardId, amountCents: 15_001, payoutMethod: 'ach' });
    expect(over.statusCode).toBe(400);
    expect(over.json().error.message).toBe('Amount cannot exceed remaining balance ($150.00)');
    const rest = await cashout(user, { cardId, amountCents: 15_000, payoutMethod: 'ach' });
    expect(rest.json().card).toMatchObject({ status: 'cashed_out', remainingAmountCents: 0 });
    expect(await cardRow(t, cardId)).toMatchObject({ status: 'cashed_out', remainingAmountCents: 0 });
    const again = await cashout(user, { cardId, amountCents: 2, payoutMethod: 'ach' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('This card has no remaining balance to cash out');
  });

  it('an expired card can still be cashed out; a frozen one, a closed one and a stranger cannot', async () => {
    const user = await signUp(t);
    const expired = await insertFundedCard(t.database.db, user.id, 5_000, { status: 'expired', validUntil: new Date(Date.now() - 86_400_000) });
    expect((await cashout(user, { cardId: expired, amountCents: 5_000, payoutMethod: 'ach' })).json().card.status).toBe('cashed_out');
    const frozen = await insertFundedCard(t.database.db, user.id, 5_000, { frozen: true });
    const frozenRes = await cashout(user, { cardId: frozen, amountCents: 100, payoutMethod: 'ach' });
    expect(frozenRes.statusCode).toBe(409);
    expect(frozenRes.json().error.code).toBe('card_frozen');
    const closed = await insertFundedCard(t.database.db, user.id, 5_000, { status: 'closed' });
    expect((await cashout(user, { cardId: closed, amountCents: 100, payoutMethod: 'ach' })).json().error.code).toBe('card_not_cashable');
    const stranger = await signUp(t);
    const notMine = await cashout(stranger, { cardId: frozen, amountCents: 100, payoutMethod: 'ach' });
    expect(notMine.statusCode).toBe(404);
    expect((await cashout(user, { cardId: randomUUID(), amountCents: 100, payoutMethod: 'ach' })).statusCode).toBe(404);
  });

  it('the form rules answer with the spec messages', async () => {
    const user = await signUp(t);
    const cardId = await insertFundedCard(t.database.db, user.id, 1_000);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ amountCents: 100, payoutMethod: 'ach' }, 'Please select a card to cash out'],
      [{ cardId: '', amountCents: 100, payoutMethod: 'ach' }, 'Please select a card to cash out'],
      [{ cardId, amountCents: 100 }, 'Please select a payout method'],
      [{ cardId, amountCents: 100, payoutMethod: '' }, 'Please select a payout method'],
      [{ cardId, payoutMethod: 'ach' }, 'Please enter a valid amount'],
      [{ cardId, amountCents: 0, payoutMethod: 'ach' }, 'Please enter a valid amount'],
      [{ cardId, amountCents: -5, payoutMethod: 'ach' }, 'Please enter a valid amount'],
      // A fraction of a cent is a third decimal, as the form and the purchases endpoint say (docs/rules.md#amount-input).
      [{ cardId, amountCents: 1.5, payoutMethod: 'ach' }, 'Amounts can have at most 2 decimal places.'],
    ];
    for (const [body, message] of cases) {
      const res = await cashout(user, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.message, JSON.stringify(body)).toBe(message);
    }
    const noKey = await user.request('POST', '/api/cashouts', { cardId, amountCents: 100, payoutMethod: 'ach' });
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json().error.message).toMatch(/Idempotency-Key/);
    const signedOut = await t.app.inject({ method: 'POST', url: '/api/cashouts', headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() }, payload: JSON.stringify({ cardId, amountCents: 100, payoutMethod: 'ach' }) });
    expect(signedOut.statusCode).toBe(401);
    expect((await cardRow(t, cardId)).remainingAmountCents).toBe(1_000);
  });

  it('40 concurrent cash-outs of $10 on a $250 card: exactly 25 succeed, balance 0, cashed_out', async () => {
    const user = await signUp(t, {}, []);
    expect((await user.request('POST', '/api/payout-methods', PAYOUT_DETAILS.ach)).statusCode).toBe(201);
    const cardId = await insertFundedCard(t.database.db, user.id, 25_000);
    const results = await Promise.all(Array.from({ length: 40 }, () => cashout(user, { cardId, amountCents: 1_000, payoutMethod: 'ach' })));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(25);
    expect(codes.filter((c) => c === 409)).toHaveLength(15);
    for (const refused of results.filter((r) => r.statusCode === 409)) {
      expect(refused.json().error.message).toBe('This card has no remaining balance to cash out');
    }
    expect(await cardRow(t, cardId)).toMatchObject({ remainingAmountCents: 0, status: 'cashed_out' });
    const rows = await t.database.db.select().from(transactions).where(and(eq(transactions.cardId, cardId), eq(transactions.type, 'cashout')));
    expect(rows).toHaveLength(25);
    const report = await checkLedger(t.database.db);
    expect(report.problems).toEqual([]);
    // docs/rules.md#outside-effects: exactly 25 payouts, one per accepted cash-out; the 15 refused sent none.
    expect(await payoutsFor(rows)).toEqual(rows.map(() => 1));
    expect(await payoutCallsFor(cardId, rows)).toBe(25);
  });

  it('the same Idempotency-Key sent 10 times at once makes one cash-out, and every answer is its', async () => {
    const user = await signUp(t);
    const cardId = await insertFundedCard(t.database.db, user.id, 10_000);
    const key = randomUUID();
    const results = await Promise.all(Array.from({ length: 10 }, () => cashout(user, { cardId, amountCents: 2_500, payoutMethod: 'ach' }, key)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    const ids = new Set(results.map((r) => r.json().cashout.id as string));
    expect(ids.size).toBe(1);
    expect((await cardRow(t, cardId)).remainingAmountCents).toBe(7_500);
    const rows = await t.database.db.select().from(transactions).where(and(eq(transactions.cardId, cardId), eq(transactions.type, 'cashout')));
    expect(rows).toHaveLength(1);
    // One payout for the ten requests: the replays sent nothing.
    expect(await payoutsFor(rows)).toEqual([1]);
    expect(await payoutCallsFor(cardId, rows)).toBe(1);
    // The same key for a different request is refused rather than replayed.
    const other = await cashout(user, { cardId, amountCents: 2_600, payoutMethod: 'ach' }, key);
    expect(other.statusCode).toBe(422);
  });

  it('GET /api/cashouts lists them newest first, and the card transaction list shows them', async () => {
    const user = await signUp(t);
    const cardId = await insertFundedCard(t.database.db, user.id, 3_000);
    await cashout(user, { cardId, amountCents: 1_000, payoutMethod: 'ach' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await cashout(user, { cardId, amountCents: 2_000, payoutMethod: 'ach' });
    const list = await user.request('GET', '/api/cashouts');
    expect(list.statusCode).toBe(200);
    expect(list.json().cashouts.map((c: { amountCents: number }) => c.amountCents)).toEqual([2_000, 1_000]);
    expect(list.json().cashouts[0]).toMatchObject({ cardLast4: '4242', feeCents: 20, netAmountCents: 1_980 });
    expect((await user.request('GET', `/api/cashouts?cardId=${cardId}`)).json().cashouts).toHaveLength(2);
    const stranger = await signUp(t);
    expect((await stranger.request('GET', '/api/cashouts')).json().cashouts).toEqual([]);
    const cardTransactions = await user.request('GET', `/api/cards/${cardId}/transactions`);
    expect(cardTransactions.statusCode).toBe(200);
    expect(cardTransactions.json().transactions.filter((tx: { type: string }) => tx.type === 'cashout')).toHaveLength(2);
  });

  it('a card made by the wizard cashes out in two steps to Cashed Out', async () => {
    const user = await signUp(t);
    const created = await createCard(user, '100');
    expect(created.statusCode).toBe(201);
    const card = created.json().card as { id: string; remainingAmountCents: number };
    const first = await cashout(user, { cardId: card.id, amountCents: 4_000, payoutMethod: 'ach' });
    expect(first.json().cashout).toMatchObject({ feeCents: 40, netAmountCents: 3_960 });
    const rest = card.remainingAmountCents - 4_000;
    const second = await cashout(user, { cardId: card.id, amountCents: rest, payoutMethod: 'ach' });
    expect(second.json().card).toMatchObject({ status: 'cashed_out', remainingAmountCents: 0 });
  });
});

describe('cash-out API in live mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { DEMO_MODE: 'false' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers 501 'Live mode not yet implemented' and changes nothing", async () => {
    const user = await signUp(t);
    const cardId = await insertFundedCard(t.database.db, user.id, 10_000);
    const res = await cashout(user, { cardId, amountCents: 1_000, payoutMethod: 'ach' });
    expect(res.statusCode).toBe(501);
    expect(res.json().error.message).toBe('Live mode not yet implemented');
    // A request without its required Idempotency-Key is refused by validation first, in live mode
    // as in demo mode (docs/architecture.md, request order), and changes nothing either.
    const noKey = await user.request('POST', '/api/cashouts', { cardId, amountCents: 1_000, payoutMethod: 'ach' });
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json().error.message).toBe('An Idempotency-Key header is required for this request.');
    expect((await cardRow(t, cardId)).remainingAmountCents).toBe(10_000);
    expect(await t.database.db.select().from(transactions).where(eq(transactions.type, 'cashout'))).toEqual([]);
    expect((await checkLedger(t.database.db)).problems).toEqual([]);
  });
});
