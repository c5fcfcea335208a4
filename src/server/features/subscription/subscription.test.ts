import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { registerUser, type ApiUser } from '../../../../tests/helpers/api-client';
import { insertFundedCard, insertPayoutMethod } from '../../../../tests/helpers/fixtures';
import { idempotencyKeys, subscriptionPayments, users } from '../../db/schema';
import { checkLedger } from '../../ledger/check-ledger';
import { rowsOf } from '../../ledger/post-journal';
import { scheduledJobs } from '../../scheduler';
import { processSubscriptionPeriodEnds } from './period-ends';

const DAY_MS = 86_400_000;
const PAYMENT_CARD_NUMBER = '4111 1111 1111 1111';

type Signed = ApiUser & { id: string };

// The app's clock, frozen during each test so that the dates it sets can be compared exactly.
let clock = new Date();

async function signUp(t: TestApp, profile: Partial<typeof users.$inferInsert> = {}): Promise<Signed> {
  const user = await registerUser(t.app);
  const id = (await user.request('GET', '/api/me')).json().id as string;
  if (Object.keys(profile).length > 0) await t.database.db.update(users).set(profile).where(eq(users.id, id));
  return Object.assign(user, { id });
}

function validCard(overrides: Record<string, unknown> = {}) {
  return { name: 'Ada Lovelace', number: PAYMENT_CARD_NUMBER, expMonth: 12, expYear: clock.getUTCFullYear() + 2, cvv: '123', ...overrides };
}

function upgrade(user: ApiUser, plan: string, billingCycle: string, card: Record<string, unknown> = validCard(), key?: string) {
  return user.request('POST', '/api/subscription/upgrade', { plan, billingCycle, card }, key ? { 'idempotency-key': key } : {});
}

async function userRow(t: TestApp, id: string) {
  const [row] = await t.database.db.select().from(users).where(eq(users.id, id));
  return row!;
}

describe('plans, upgrade and subscription API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: () => clock });
  });
  afterEach(async () => {
    clock = new Date();
    if (t) expect((await checkLedger(t.database.db)).problems).toEqual([]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('GET /api/plans: prices, yearly saving, limits, fees, payout methods and what can be bought', async () => {
    const user = await signUp(t);
    const res = await user.request('GET', '/api/plans');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.plans.map((p: { id: string; upgradable: boolean; current: boolean }) => [p.id, p.current, p.upgradable])).toEqual([
      ['free', true, false],
      ['premium', false, true],
      ['premium+', false, true],
    ]);
    expect(body.plans[1]).toMatchObject({
      label: 'Premium Plan',
      priceMonthlyCents: 999,
      priceYearlyCents: 9_999,
      yearlySavingPpm: 165_916,
      monthlyCombineLimit: 10,
      productFeePpm: 5_000,
      cashoutFeePpm: 5_000,
      payoutMethods: ['ach', 'paypal'],
      firstPaymentCents: { monthly: 999, yearly: 9_999 },
    });
    expect(body.plans[2]).toMatchObject({ monthlyCombineLimit: null, cashoutFeePpm: 2_500, payoutMethods: ['ach', 'paypal', 'cashapp'] });
    expect(body.loyalty).toEqual({ months: 0, currentDiscountPpm: 0, nextDiscountPpm: 0, stepPpm: 100_000, maxPpm: 500_000 });
    expect(body.subscription).toMatchObject({ plan: 'free', billingCycle: null, priceCents: 0, nextBillingDate: null, lastPayment: null });

    const loyal = await signUp(t, { subscription: 'premium', billingCycle: 'monthly', loyaltyDiscountMonths: 3, subscriptionPeriodEnd: new Date(Date.now() + 10 * DAY_MS) });
    const loyalPlans = (await loyal.request('GET', '/api/plans')).json();
    expect(loyalPlans.loyalty).toMatchObject({ months: 3, currentDiscountPpm: 200_000, nextDiscountPpm: 300_000 });
    expect(loyalPlans.plans.map((p: { upgradable: boolean }) => p.upgradable)).toEqual([false, false, true]);
    // The discount is on the current plan's price only (decision 159): Premium+ costs its list price.
    expect(loyalPlans.plans[2].firstPaymentCents).toEqual({ monthly: 1_999, yearly: 19_999 });
    expect(loyalPlans.subscription).toMatchObject({ plan: 'premium', priceCents: 999, nextPaymentCents: 699 });
  });

  it('the payment form is validated per docs/rules.md#upgrades (demo mode: the first five fields), and nothing is charged', async () => {
    const user = await signUp(t);
    const year = clock.getUTCFullYear();
    const cases: Array<[Record<string, unknown>, string]> = [
      [validCard({ name: '' }), 'Name on card is required'],
      [validCard({ name: '   ' }), 'Name on card is required'],
      [validCard({ number: '' }), 'Card number is required'],
      [validCard({ number: '4111-1111-1111-1111' }), 'Card number can only contain digits'],
      [validCard({ number: '4111 1111 1111 1111 111' }), 'Card number can have at most 19 characters'],
      [validCard({ expMonth: 13 }), 'Enter the expiry month as MM (01 to 12)'],
      [validCard({ expMonth: undefined }), 'Expiry month is required'],
      [validCard({ expYear: year + 11 }), `Choose an expiry year from ${year} to ${year + 10}`],
      [validCard({ expYear: year - 1 }), `Choose an expiry year from ${year} to ${year + 10}`],
      [validCard({ cvv: '' }), 'CVV is required'],
      [validCard({ cvv: '12345' }), 'CVV must be up to 4 digits'],
      [validCard({ cvv: '12a' }), 'CVV must be up to 4 digits'],
      [validCard({ zip: '123456' }), 'ZIP code must be up to 5 digits'],
      [validCard({ zip: '12a45' }), 'ZIP code must be up to 5 digits'],
    ];
    if (clock.getUTCMonth() > 0) cases.push([validCard({ expYear: year, expMonth: clock.getUTCMonth() }), 'This card has expired']);
    for (const [card, message] of cases) {
      const res = await upgrade(user, 'premium', 'monthly', card);
      expect(res.statusCode, JSON.stringify(card)).toBe(400);
      expect(res.json().error.message, JSON.stringify(card)).toBe(message);
    }
    expect(await t.database.db.select().from(subscriptionPayments).where(eq(subscriptionPayments.userId, user.id))).toEqual([]);
    expect((await userRow(t, user.id)).subscription).toBe('free');
    // A short number and no ZIP are fine in demo mode.
    expect((await upgrade(user, 'premium', 'monthly', validCard({ number: '4242', cvv: '1', zip: undefined }))).statusCode).toBe(200);
  });

  it('an upgrade charges the plan price, sets plan, cycle, price, dates and loyalty, and keeps only brand and last 4', async () => {
    const user = await signUp(t, { subscriptionLastCanceledAt: new Date(Date.now() - DAY_MS) });
    const res = await upgrade(user, 'premium', 'monthly', validCard({ zip: '12345' }));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const expectedEnd = new Date(clock.getTime() + 30 * DAY_MS).toISOString();
    expect(body).toMatchObject({
      success: true,
      message: 'Your account has been upgraded to Premium!',
      nextBillingDate: expectedEnd,
      payment: { plan: 'premium', billingCycle: 'monthly', listPriceCents: 999, discountPpm: 0, amountCents: 999, cardBrand: 'visa', cardLast4: '1111' },
      subscription: { plan: 'premium', billingCycle: 'monthly', priceCents: 999, loyaltyMonths: 1, nextBillingDate: expectedEnd, cancelAtPeriodEnd: false, lastCanceledAt: null, nextPaymentCents: 899 },
    });
    expect(await userRow(t, user.id)).toMatchObject({
      subscription: 'premium',
      billingCycle: 'monthly',
      subscriptionPriceCents: 999,
      loyaltyDiscountMonths: 1,
      subscriptionLastCanceledAt: null,
      cancelAtPeriodEnd: false,
      subscriptionPeriodEnd: new Date(expectedEnd),
      currentSubscriptionStart: clock,
    });
    // The card number and CVV are nowhere in the database.
    const dump = await t.database.db.execute(sql`
      select (select coalesce(json_agg(p), '[]')::text from subscription_payments p) || (select coalesce(json_agg(k), '[]')::text from idempotency_keys k) as text`);
    expect(JSON.stringify(dump)).not.toContain('41111111');
    expect(JSON.stringify(dump)).not.toContain('4111 1111');
    // Revenue is a balanced journal: funding sources → subscription revenue.
    const journals = rowsOf<{ n: number }>(
      await t.database.db.execute(sql`
        select count(*)::int as n from journals j join journal_entries e on e.journal_id = j.id join ledger_accounts a on a.id = e.account_id
        where j.user_id = ${user.id} and j.kind = 'subscription' and a.code = 'system:subscription_revenue' and e.amount_cents = 999`),
    );
    const journal = journals[0];
    expect(journal).toMatchObject({ n: 1 });

    const me = (await user.request('GET', '/api/me')).json();
    expect(me).toMatchObject({ subscription: 'premium', billingCycle: 'monthly', loyaltyDiscountMonths: 1 });
  });

  it("'Not Available': the current plan and downgrades cannot be bought; premium+ has no upgrade", async () => {
    const user = await signUp(t);
    expect((await upgrade(user, 'free', 'monthly')).json().error.message).toBe('Not Available');
    expect((await upgrade(user, 'premium', 'yearly')).statusCode).toBe(200);
    for (const plan of ['free', 'premium']) {
      const res = await upgrade(user, plan, 'monthly');
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatchObject({ code: 'not_available', message: 'Not Available' });
    }
    // Premium → Premium+ pays month 2, which counts towards later discounts, at the Premium+ list
    // price: the loyalty discount is on the current plan's price only (decision 159).
    const plus = await upgrade(user, 'premium+', 'yearly');
    expect(plus.json()).toMatchObject({ payment: { listPriceCents: 19_999, discountPpm: 0, amountCents: 19_999 }, subscription: { loyaltyMonths: 2, nextPaymentCents: 15_999 } });
    expect(plus.json().nextBillingDate).toBe(new Date(clock.getTime() + 365 * DAY_MS).toISOString());
    expect((await upgrade(user, 'premium+', 'monthly')).json().error.message).toBe('Not Available');
  });

  it('the same Idempotency-Key twice charges once and answers the same', async () => {
    const user = await signUp(t);
    const key = randomUUID();
    const [first, second] = await Promise.all([upgrade(user, 'premium', 'monthly', validCard(), key), upgrade(user, 'premium', 'monthly', validCard(), key)]);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.json().payment.id).toBe(first.json().payment.id);
    expect(await t.database.db.select().from(subscriptionPayments).where(eq(subscriptionPayments.userId, user.id))).toHaveLength(1);
  });

  it('without an Idempotency-Key the upgrade runs once as sent: no key is claimed or stored, and sent again it is decided again', async () => {
    const user = await signUp(t);
    expect((await upgrade(user, 'premium', 'monthly')).statusCode).toBe(200);
    expect(await t.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.userId, user.id))).toEqual([]);
    expect((await upgrade(user, 'premium', 'monthly')).json().error.code).toBe('not_available');
    expect(await t.database.db.select().from(subscriptionPayments).where(eq(subscriptionPayments.userId, user.id))).toHaveLength(1);
  });

  it('cancel: the plan stays until the period end, loyalty resets, then the scheduled job reverts to Free', async () => {
    const user = await signUp(t);
    const notPaid = await user.request('POST', '/api/subscription/cancel');
    expect(notPaid.statusCode).toBe(409);
    expect(notPaid.json().error.message).toBe('You are on the Free plan: there is no subscription to cancel.');

    await upgrade(user, 'premium', 'monthly');
    const cancelled = await user.request('POST', '/api/subscription/cancel');
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ subscription: { plan: 'premium', cancelAtPeriodEnd: true, loyaltyMonths: 0, nextBillingDate: null, nextPaymentCents: null } });
    expect(cancelled.json().subscription.periodEnd).toBe(new Date(clock.getTime() + 30 * DAY_MS).toISOString());
    const row = await userRow(t, user.id);
    expect(row).toMatchObject({ subscription: 'premium', cancelAtPeriodEnd: true, loyaltyDiscountMonths: 0 });
    expect(row.subscriptionLastCanceledAt).toBeInstanceOf(Date);
    // Cancelling twice changes nothing more.
    expect((await user.request('POST', '/api/subscription/cancel')).statusCode).toBe(200);

    // Still Premium before the end: PayPal cash-outs work.
    const cardId = await insertFundedCard(t.database.db, user.id, 1_000);
    await insertPayoutMethod(t.database.db, user.id, 'paypal');
    const paypal = () => user.request('POST', '/api/cashouts', { cardId, amountCents: 100, payoutMethod: 'paypal' }, { 'idempotency-key': randomUUID() });
    expect((await paypal()).statusCode).toBe(201);

    const periodEnd = (await userRow(t, user.id)).subscriptionPeriodEnd!;
    expect((await processSubscriptionPeriodEnds(t.database.db, new Date(periodEnd.getTime() - DAY_MS), { demoMode: true })).reverted).toBe(0);
    expect((await userRow(t, user.id)).subscription).toBe('premium');
    // The period ends (moved into the past rather than moving the clock, which would end the session too).
    await t.database.db.update(users).set({ subscriptionPeriodEnd: new Date(clock.getTime() - 1_000) }).where(eq(users.id, user.id));
    const job = scheduledJobs.find((j) => j.name === 'subscription-period-ends');
    expect(job).toBeDefined();
    await job!.run(t.app);
    expect(await userRow(t, user.id)).toMatchObject({ subscription: 'free', billingCycle: null, subscriptionPriceCents: 0, subscriptionPeriodEnd: null, cancelAtPeriodEnd: false, loyaltyDiscountMonths: 0 });
    expect((await paypal()).statusCode).toBe(403);
    // Free again: the plans can be bought again, from month 1.
    expect((await user.request('GET', '/api/plans')).json().plans.map((p: { upgradable: boolean }) => p.upgradable)).toEqual([false, true, true]);
  });

  it('demo renewal: a period that ends without a cancel renews at the next loyalty discount and adds a month', async () => {
    const user = await signUp(t);
    await upgrade(user, 'premium', 'monthly');
    // The job is called with a later date; the app's clock stays (the session would end otherwise).
    let at = clock;
    for (const [month, amount] of [[2, 899], [3, 799]] as const) {
      at = new Date((await userRow(t, user.id)).subscriptionPeriodEnd!.getTime() + 1_000);
      expect((await processSubscriptionPeriodEnds(t.database.db, at, { demoMode: true })).renewed).toBeGreaterThanOrEqual(1);
      const row = await userRow(t, user.id);
      expect(row).toMatchObject({ subscription: 'premium', loyaltyDiscountMonths: month });
      const payments = await t.database.db.select().from(subscriptionPayments).where(eq(subscriptionPayments.userId, user.id));
      expect(payments).toHaveLength(month);
      expect(payments.map((p) => p.amountCents)).toContain(amount);
    }
    const view = (await user.request('GET', '/api/subscription')).json();
    expect(view).toMatchObject({ loyaltyMonths: 3, loyaltyDiscountPpm: 200_000, nextLoyaltyDiscountPpm: 300_000, nextPaymentCents: 699, lastPayment: { cardBrand: 'visa', cardLast4: '1111' } });
    // Running the job again in the same period does nothing.
    expect(await processSubscriptionPeriodEnds(t.database.db, at, { demoMode: true })).toEqual({ reverted: 0, renewed: 0 });
  });

  it('a closed account (decision 165) is never charged a renewal: a paid plan left on it ends at the period end', async () => {
    const user = await signUp(t);
    expect((await upgrade(user, 'premium', 'monthly')).statusCode).toBe(200);
    // However the plan outlived the closing (closing ends it; an upgrade racing it is refused).
    await t.database.db.update(users).set({ closedAt: clock }).where(eq(users.id, user.id));
    const at = new Date((await userRow(t, user.id)).subscriptionPeriodEnd!.getTime() + 1_000);
    const report = await processSubscriptionPeriodEnds(t.database.db, at, { demoMode: true });
    expect(report.renewed).toBe(0);
    expect(await userRow(t, user.id)).toMatchObject({ subscription: 'free', billingCycle: null, subscriptionPeriodEnd: null });
    expect(await t.database.db.select().from(subscriptionPayments).where(eq(subscriptionPayments.userId, user.id))).toHaveLength(1);
  });
});

describe('upgrade in live mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { DEMO_MODE: 'false' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers 501 'Live payment processing not implemented in MVP' and changes nothing", async () => {
    const user = await signUp(t);
    const res = await upgrade(user, 'premium', 'monthly', validCard({ zip: '12345' }));
    expect(res.statusCode).toBe(501);
    expect(res.json().error.message).toBe('Live payment processing not implemented in MVP');
    expect(await userRow(t, user.id)).toMatchObject({ subscription: 'free', loyaltyDiscountMonths: 0 });
    expect(await t.database.db.select().from(subscriptionPayments)).toEqual([]);
  });
});
