import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { addSource, completeWithQuote, PAYOUT_DETAILS, registerUser, startCombine, type ApiUser } from '../../../../tests/helpers/api-client';
import { payoutMethods, rebates, users } from '../../db/schema';
import { checkLedger } from '../../ledger/check-ledger';
import { rowsOf } from '../../ledger/post-journal';

type Signed = ApiUser & { id: string };

async function signUp(t: TestApp, profile: Partial<typeof users.$inferInsert> = {}): Promise<Signed> {
  const user = await registerUser(t.app);
  const id = (await user.request('GET', '/api/me')).json().id as string;
  if (Object.keys(profile).length > 0) await t.database.db.update(users).set(profile).where(eq(users.id, id));
  return Object.assign(user, { id });
}

async function preferredOf(t: TestApp, userId: string) {
  const [row] = await t.database.db.select({ preferred: users.preferredPayout }).from(users).where(eq(users.id, userId));
  return row?.preferred ?? null;
}

/** A completed combine with one Klarna source of $150.00: a pending rebate of $9.75 (docs/rules.md#bnpl). */
async function completeKlarnaCombine(user: ApiUser) {
  const combine = await startCombine(user, '143.85', '0', 'dollars');
  const added = await addSource(user, combine.id, { type: 'bnpl', provider: 'klarna', chargeCents: 15_000 });
  const sourceId = added.json().sources[0].id as string;
  const entry = await user.request('POST', `/api/combines/${combine.id}/sources/${sourceId}/bnpl-card`, { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvv: '123' });
  if (entry.statusCode !== 200) throw new Error(`bnpl card ${entry.statusCode}: ${entry.body}`);
  const done = await completeWithQuote(user, combine.id);
  if (done.statusCode !== 201) throw new Error(`complete ${done.statusCode}: ${done.body}`);
  return { id: combine.id as string, answer: done.json() };
}

async function payoutsBalance(t: TestApp): Promise<number> {
  const result = await t.database.db.execute(
    sql`select coalesce(sum(e.amount_cents), 0)::text as total from journal_entries e join ledger_accounts a on a.id = e.account_id where a.code = 'system:payouts'`,
  );
  return Number(rowsOf<{ total: string }>(result)[0]?.total ?? 0);
}

describe('payout methods API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterEach(async () => {
    if (t) expect((await checkLedger(t.database.db)).problems).toEqual([]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('Free: ACH can be added and becomes preferred; adding it twice says so; PayPal and Cash App are refused', async () => {
    const user = await signUp(t);
    const empty = await user.request('GET', '/api/payout-methods');
    expect(empty.json()).toMatchObject({ methods: [], preferredPayout: null, allowedMethods: ['ach'], pendingRebates: { count: 0, amountCents: 0 } });

    const added = await user.request('POST', '/api/payout-methods', { method: 'ach' });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({
      message: 'ACH added as a payout method',
      preferredPayout: 'ach',
      methods: [{ method: 'ach', label: 'ACH', status: 'active', preferred: true, allowedByPlan: true }],
    });
    expect(added.json().methods[0].lastUsed).toBeTruthy();

    const twice = await user.request('POST', '/api/payout-methods', { method: 'ach' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toBe('ACH is already added as a payout method');

    const paypal = await user.request('POST', '/api/payout-methods', { method: 'paypal' });
    expect(paypal.statusCode).toBe(403);
    expect(paypal.json().error.message).toBe('PayPal payouts are not available on the Free plan.');
    expect((await user.request('POST', '/api/payout-methods', { method: 'cashapp' })).statusCode).toBe(403);
    const none = await user.request('POST', '/api/payout-methods', {});
    expect(none.statusCode).toBe(400);
    expect(none.json().error.message).toBe('Please select a payout method');

    const me = (await user.request('GET', '/api/me')).json();
    expect(me).toMatchObject({ preferredPayout: 'ach', payoutMethods: [{ method: 'ach', status: 'active' }] });
  });

  it('where the money goes is checked and kept masked: an account keeps its last 4 digits', async () => {
    const user = await signUp(t, { subscription: 'premium+' });
    const bad = await user.request('POST', '/api/payout-methods', { method: 'ach', detail: '12', routingNumber: '021000021' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe('Enter the bank account number (4 to 17 digits).');
    expect(await t.database.db.select().from(payoutMethods).where(eq(payoutMethods.userId, user.id))).toEqual([]);
    // ACH: the bank's routing number with the account (decision 171); only the account's last 4 are kept.
    const ach = await user.request('POST', '/api/payout-methods', { method: 'ach', detail: '0001 2345 6789', routingNumber: '021000021' });
    expect(ach.statusCode).toBe(201);
    const cashapp = await user.request('POST', '/api/payout-methods', { method: 'cashapp', detail: 'alex_1' });
    expect(cashapp.json().methods.map((m: { method: string; detail: string | null }) => [m.method, m.detail])).toEqual([
      ['ach', '•••• 6789'],
      ['cashapp', '$alex_1'],
    ]);
    const stored = await t.database.db.execute(sql`select detail from payout_methods where user_id = ${user.id}`);
    expect(JSON.stringify(stored)).not.toContain('000123456789');
    expect(JSON.stringify(stored)).not.toContain('021000021');
  });

  it('Premium+: add all three, set the preferred one, remove the preferred (moves), remove all (clears)', async () => {
    const user = await signUp(t, { subscription: 'premium+' });
    for (const method of ['paypal', 'ach', 'cashapp'] as const) {
      expect((await user.request('POST', '/api/payout-methods', { method })).statusCode).toBe(201);
    }
    expect(await preferredOf(t, user.id)).toBe('paypal');

    const preferred = await user.request('PUT', '/api/payout-methods/preferred', { method: 'cashapp' });
    expect(preferred.statusCode).toBe(200);
    expect(preferred.json()).toMatchObject({ message: 'Cash App set as preferred payout method', preferredPayout: 'cashapp' });

    const removed = await user.request('DELETE', '/api/payout-methods/cashapp');
    expect(removed.statusCode).toBe(200);
    expect(removed.json().message).toBe('Cash App removed as a payout method');
    // The preference moves to another saved method (the first one added).
    expect(removed.json().preferredPayout).toBe('paypal');

    expect((await user.request('DELETE', '/api/payout-methods/ach')).json().preferredPayout).toBe('paypal');
    const last = await user.request('DELETE', '/api/payout-methods/paypal');
    expect(last.json()).toMatchObject({ preferredPayout: null, methods: [] });
    expect(await preferredOf(t, user.id)).toBeNull();

    const gone = await user.request('DELETE', '/api/payout-methods/paypal');
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error.message).toBe('PayPal is not one of your payout methods.');
    const notSaved = await user.request('PUT', '/api/payout-methods/preferred', { method: 'ach' });
    expect(notSaved.statusCode).toBe(404);
    expect((await user.request('DELETE', '/api/payout-methods/venmo')).statusCode).toBe(400);
  });

  it('after a plan ends, a saved method the plan no longer allows is shown as such and cannot be preferred', async () => {
    const user = await signUp(t, { subscription: 'premium' });
    await user.request('POST', '/api/payout-methods', { method: 'ach' });
    await user.request('POST', '/api/payout-methods', { method: 'paypal' });
    await t.database.db.update(users).set({ subscription: 'free' }).where(eq(users.id, user.id));
    const view = (await user.request('GET', '/api/payout-methods')).json();
    expect(view.methods.map((m: { method: string; allowedByPlan: boolean }) => [m.method, m.allowedByPlan])).toEqual([
      ['ach', true],
      ['paypal', false],
    ]);
    expect((await user.request('PUT', '/api/payout-methods/preferred', { method: 'paypal' })).statusCode).toBe(403);
    // Removing it is always possible.
    expect((await user.request('DELETE', '/api/payout-methods/paypal')).statusCode).toBe(200);
  });

  it('pending BNPL rebates are paid to the preferred method as soon as one exists', async () => {
    const user = await signUp(t);
    const { id: combineId, answer: firstAnswer } = await completeKlarnaCombine(user);
    expect(firstAnswer.combine.rebates).toMatchObject([{ status: 'pending', rebateAmountCents: 975 }]);
    const [pending] = await t.database.db.select().from(rebates).where(eq(rebates.combineId, combineId));
    expect(pending).toMatchObject({ status: 'pending', rebateAmountCents: 975, payoutMethod: null, processedAt: null });
    expect((await user.request('GET', '/api/payout-methods')).json().pendingRebates).toEqual({ count: 1, amountCents: 975 });

    const payoutsBefore = await payoutsBalance(t);
    // With its details: a rebate is paid only to a destination the payout provider registered (decision 172).
    const added = await user.request('POST', '/api/payout-methods', PAYOUT_DETAILS.ach);
    expect(added.json()).toMatchObject({ rebatesPaid: { count: 1, amountCents: 975 }, pendingRebates: { count: 0, amountCents: 0 } });
    const [paid] = await t.database.db.select().from(rebates).where(eq(rebates.combineId, combineId));
    expect(paid).toMatchObject({ status: 'processed', payoutMethod: 'ach', rebateAmountCents: 975 });
    expect(paid!.processedAt).toBeInstanceOf(Date);
    expect(paid!.journalId).toBeTruthy();
    expect((await payoutsBalance(t)) - payoutsBefore).toBe(975);

    // With a preferred method already there, the next combine's rebate is paid at completion.
    const { id: second, answer } = await completeKlarnaCombine(user);
    // The completion's own answer (stored for a retry with its Idempotency-Key) says so too.
    expect(answer.combine.rebates).toMatchObject([{ status: 'processed', payoutMethod: 'ach', rebateAmountCents: 975 }]);
    const [immediate] = await t.database.db.select().from(rebates).where(eq(rebates.combineId, second));
    expect(immediate).toMatchObject({ status: 'processed', payoutMethod: 'ach' });

    // The combine's history shows the rebate as processed.
    const history = (await user.request('GET', `/api/combines/${combineId}`)).json();
    expect(history.rebates[0]).toMatchObject({ status: 'processed', payoutMethod: 'ach' });
  });

  it('adding the same method from two tabs at once adds it once', async () => {
    const user = await signUp(t);
    const results = await Promise.all(Array.from({ length: 5 }, () => user.request('POST', '/api/payout-methods', { method: 'ach' })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(await t.database.db.select().from(payoutMethods).where(eq(payoutMethods.userId, user.id))).toHaveLength(1);
  });
});
