// Proof that nothing changed for a user: one scripted day of money operations, driven through the
// public HTTP API on a fixed clock, recorded (every answer, then what the database holds: journals,
// cards, combines, rebates, money effects, Idempotency-Keys' stored answers, counters, and what
// the outside systems were asked), normalised (ids, tokens, the issued cards' random numbers and
// networks, the real clock), and compared with tests/integration/scripted-day.record.json.
// A refactor of the money code must leave the record as it is. UPDATE_SCRIPTED_DAY=1 rewrites it:
// only from code whose behaviour is the reference.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { createDemoCardProcessor, type CardProcessor } from '../../src/server/adapters/card-processor';
import { DemoCallLog } from '../../src/server/adapters/demo-calls';
import { createDemoPayouts } from '../../src/server/adapters/payouts';
import { checkLedger } from '../../src/server/ledger/check-ledger';
import { asUser, PAYOUT_DETAILS, sessionCookieFrom, TEST_MASTERCARD, TEST_PASSWORD, TEST_VISA, type ApiUser } from '../helpers/api-client';
import { differences, fingerprintOf, inStableOrder, Normaliser, readEndOfDay, rowKeys } from '../helpers/day-record';
import { createTestApp, type TestApp } from '../helpers/test-app';

const RECORD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'scripted-day.record.json');
// The day is in the past: the real clock (the database's now()) is then years away from it, so a
// time tells which clock it came from. Not in the future: an Idempotency-Key's created_at is the
// database's clock, and a key older than the app's clock minus 24 hours counts as expired, so a
// replay would be done again. Every step is 5 minutes after the one before.
const DAY_START = Date.UTC(2021, 5, 15, 8, 0, 0);
const STEP_MS = 5 * 60_000;
const EXP_YEAR = 2023;
const DECLINE_CARD = '4000000000009995';

/**
 * The demo processor, whose issued numbers are drawn again until their last 4 digits are new and
 * none of the source cards' or payout details': the last 4 then name one card in the record.
 */
function distinctLast4Processor(log: DemoCallLog): CardProcessor {
  const demo = createDemoCardProcessor({ declineRate: 0, log });
  const taken = new Set(['4242', '4444', '9995', '1111', '6789']);
  return {
    ...demo,
    issueCard: (input) =>
      demo.issueCard({
        ...input,
        generateNumber: (digit) => {
          for (;;) {
            const number = input.generateNumber(digit);
            if (!taken.has(number.slice(-4))) return (taken.add(number.slice(-4)), number);
          }
        },
      }),
  };
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Step = { step: string; status: number; replayed: boolean; body: unknown };

describe('a scripted day of money operations', () => {
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close();
  });

  it('gives the recorded answers, journals, cards and effects', async () => {
    const realStartMs = Date.now();
    let clock = DAY_START;
    const log = new DemoCallLog();
    t = await createTestApp({ now: () => new Date(clock), adapters: { cardProcessor: distinctLast4Processor(log), payouts: createDemoPayouts(log) } });
    const app = t;
    const steps: Step[] = [];
    const stepNames = ['before the day'];
    const bornAt = new Map((await rowKeys(app.database.db)).map((k) => [k, 'before the day']));
    const fingerprints = new Map<string, string>();
    /** The step during which each outside call was made (the log's order). */
    const callSteps: string[] = [];
    const ids = new Map<ApiUser, string>();

    /** Records an answer once what it caused outside is carried out, with the rows and outside calls its step made. */
    async function answered(name: string, res: LightMyRequestResponse): Promise<Json> {
      await app.app.effects.drain();
      await app.app.effects.idle();
      await app.app.cardStates.sync();
      await app.app.cardStates.idle();
      const json = res.body ? (res.json() as Json) : {};
      steps.push({ step: name, status: res.statusCode, replayed: res.headers['idempotent-replayed'] === 'true', body: json });
      stepNames.push(name);
      for (const k of await rowKeys(app.database.db)) if (!bornAt.has(k)) bornAt.set(k, name);
      while (callSteps.length < log.calls.length) callSteps.push(name);
      return json;
    }
    /** One request, 5 minutes after the last. */
    async function step(name: string, user: ApiUser | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, key?: string, fingerprintBody = body): Promise<Json> {
      clock += STEP_MS;
      const res = user ? await user.request(method, url, body, key ? { 'idempotency-key': key } : {}) : await app.app.inject({ method, url });
      if (user && key && !fingerprints.has(`${ids.get(user)}:${key}`)) fingerprints.set(`${ids.get(user)}:${key}`, fingerprintOf(method, url, fingerprintBody));
      return answered(name, res);
    }
    /** Signs up (`register`) or in, from an address of the person's own; the session is kept. */
    async function signIn(name: string, ip: string, register: boolean, user?: ApiUser): Promise<ApiUser> {
      clock += STEP_MS;
      const email = `${name}@day.example`;
      const payload = register ? { email, password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD, acceptTerms: true } : { email, password: TEST_PASSWORD };
      const res = await app.app.inject({ method: 'POST', url: `/api/auth/${register ? 'register' : 'login'}`, remoteAddress: ip, headers: { 'content-type': 'application/json' }, payload });
      const body = await answered(`${name}: ${register ? 'signs up' : 'signs in again'}`, res);
      if (user) return Object.assign(user, { cookie: sessionCookieFrom(res) });
      const signedIn = asUser(app.app, email, sessionCookieFrom(res));
      ids.set(signedIn, body.id as string);
      return signedIn;
    }
    const card = (provider: string, cardNumber: string, chargeCents: number) => ({ type: 'credit', provider, chargeCents, cardNumber, expMonth: 12, expYear: EXP_YEAR, cvv: '123' });
    const choices = (over: Json = {}) => ({ useBoost: false, creationFeeSourceIdx: -1, cardType: 'general', ...over });
    const expected = (quote: Json) => ({ cardAmountCents: quote.cardAmountCents, totalChargedCents: quote.totalChargedCents, productFeeCents: quote.productFeeCents });
    const draft = (user: ApiUser, name: string, baseInput: string, bufferInput = '0', bufferMode = 'percent') => step(name, user, 'POST', '/api/combines', { baseInput, bufferInput, bufferMode });
    const add = (user: ApiUser, name: string, combine: Json, source: Json) => step(name, user, 'POST', `/api/combines/${combine.id}/sources`, source);
    const quote = (user: ApiUser, name: string, combine: Json, over: Json = {}) => step(name, user, 'POST', `/api/combines/${combine.id}/quote`, choices(over));
    const complete = (user: ApiUser, name: string, combine: Json, q: Json, key: string, over: Json = {}) =>
      step(name, user, 'POST', `/api/combines/${combine.id}/complete`, { ...choices(over), expected: expected(q) }, key);
    const purchase = (user: ApiUser, name: string, cardId: string, amountCents: number, key: string, merchant = 'Corner Shop') =>
      step(name, user, 'POST', `/api/cards/${cardId}/purchases`, { merchant, amountCents }, key);
    const cashout = (user: ApiUser, name: string, cardId: string, amountCents: number, key: string, payoutMethod = 'ach') =>
      step(name, user, 'POST', '/api/cashouts', { cardId, amountCents, payoutMethod }, key);

    // ---- Morning: three people sign up; Ada makes her first card from two cards ----
    const ada = await signIn('ada', '198.51.100.1', true);
    const bob = await signIn('bob', '198.51.100.2', true);
    const carol = await signIn('carol', '198.51.100.3', true);
    await step('anyone: launch promo spots', null, 'GET', '/api/promo');
    await draft(ada, 'ada: an amount with letters (400)', '5x0', '10');
    const a = await draft(ada, 'ada: starts combine A, $500 + 10%', '500', '10');
    await add(ada, 'ada: A, a card number that is not one (400)', a, card('visa', '4242 4242', 30_000));
    await add(ada, 'ada: A, the decline test card (402)', a, card('visa', DECLINE_CARD, 30_000));
    const a1 = await add(ada, 'ada: A, Visa $300', a, card('visa', TEST_VISA, 30_000));
    await add(ada, 'ada: A, Mastercard for the rest', a, card('mastercard', TEST_MASTERCARD, a1.funding.suggestedChargeCents.card));
    const qa = await quote(ada, 'ada: A, quote', a);
    await complete(ada, 'ada: A, complete with figures that moved (409 quote_changed)', a, { ...qa, cardAmountCents: qa.cardAmountCents + 100 }, 'ada-complete-A-stale');
    await step('ada: A, complete without an Idempotency-Key (400)', ada, 'POST', `/api/combines/${a.id}/complete`, { ...choices(), expected: expected(qa) });
    const doneA = await complete(ada, 'ada: A, complete', a, qa, 'ada-complete-A');
    const cardA = doneA.card.id as string;
    await complete(ada, 'ada: A, complete again, same key (replayed)', a, qa, 'ada-complete-A');
    await complete(ada, 'ada: A, same key, another body (422)', a, qa, 'ada-complete-A', { cardType: 'single-use' });
    await complete(ada, 'ada: A, complete again, new key (409 already_completed)', a, qa, 'ada-complete-A-again');
    await quote(ada, 'ada: A, quote a completed combine (409 not_a_draft)', a);

    // ---- Ada spends, freezes, and draws on her card ----
    await purchase(ada, 'ada: buys $12.34 with card A', cardA, 1_234, 'ada-purchase-1', 'Book Store');
    await purchase(ada, 'ada: the same purchase again (replayed)', cardA, 1_234, 'ada-purchase-1', 'Book Store');
    await purchase(ada, 'ada: same purchase key, another amount (422)', cardA, 999, 'ada-purchase-1', 'Book Store');
    await purchase(ada, 'ada: buys more than card A holds (402 declined)', cardA, 5_000_000, 'ada-purchase-2');
    await step('ada: freezes card A', ada, 'POST', `/api/cards/${cardA}/freeze`);
    await purchase(ada, 'ada: buys with frozen card A (402 declined)', cardA, 500, 'ada-purchase-3');
    await cashout(ada, 'ada: cashes out with no payout method (409)', cardA, 5_000, 'ada-cashout-0');
    await step('ada: unfreezes card A', ada, 'POST', `/api/cards/${cardA}/unfreeze`);
    await purchase(bob, "bob: buys with Ada's card (404)", cardA, 500, 'bob-purchase-0');
    await step("bob: Ada's card (404)", bob, 'GET', `/api/cards/${cardA}`);

    // ---- Ada: a draft kept for later; combine B draws $50 from card A; combine C with BNPL ----
    const d = await draft(ada, 'ada: starts draft D, $40', '40');
    await add(ada, 'ada: D, Visa', d, card('visa', TEST_VISA, d.funding.suggestedChargeCents.card));
    const b = await draft(ada, 'ada: starts combine B, $150', '150');
    const b1 = await add(ada, 'ada: B, $50 from card A', b, { type: 'internal', sourceCardId: cardA, chargeCents: 5_000 });
    await add(ada, 'ada: B, Visa for the rest', b, card('visa', TEST_VISA, b1.funding.suggestedChargeCents.card));
    const qb = await quote(ada, 'ada: B, quote', b);
    const doneB = await complete(ada, 'ada: B, complete', b, qb, 'ada-complete-B');
    const cardB = doneB.card.id as string;
    const c = await draft(ada, 'ada: starts combine C, $200', '200');
    const c1 = await add(ada, 'ada: C, Affirm $150', c, { type: 'bnpl', provider: 'affirm', chargeCents: 15_000 });
    await add(ada, 'ada: C, Visa for the rest', c, card('visa', TEST_VISA, c1.funding.suggestedChargeCents.card));
    const qc = await quote(ada, 'ada: C, quote', c);
    await complete(ada, "ada: C, complete before Affirm's one-time card (400)", c, qc, 'ada-complete-C-early');
    await step("ada: C, Affirm's one-time card", ada, 'POST', `/api/combines/${c.id}/sources/${c1.sources[0].id}/bnpl-card`, { cardNumber: '4242 4242 4242 4242', expiry: '12/23', cvv: '123' });
    const qc2 = await quote(ada, 'ada: C, quote again', c);
    await complete(ada, 'ada: C, complete (third this month: a boost)', c, qc2, 'ada-complete-C');
    const qd = await quote(ada, 'ada: D, quote', d);
    await complete(ada, 'ada: D, complete (403 monthly limit)', d, qd, 'ada-complete-D-free');
    await draft(ada, 'ada: starts a fifth combine (403 monthly limit)', '20');

    // ---- Ada: a payout method (the pending rebate is paid), cash-outs, refusals ----
    await cashout(ada, 'ada: cashes out, still no payout method (409)', cardA, 5_000, 'ada-cashout-1');
    await step('ada: adds ACH with its details', ada, 'POST', '/api/payout-methods', PAYOUT_DETAILS.ach);
    await step('ada: freezes card A again', ada, 'POST', `/api/cards/${cardA}/freeze`);
    await cashout(ada, 'ada: cashes out frozen card A (409 card_frozen)', cardA, 5_000, 'ada-cashout-1');
    await step('ada: unfreezes card A again', ada, 'POST', `/api/cards/${cardA}/unfreeze`);
    await cashout(ada, 'ada: cashes out $123.45 from card A', cardA, 12_345, 'ada-cashout-1');
    await cashout(ada, 'ada: the same cash-out again (replayed)', cardA, 12_345, 'ada-cashout-1');
    await cashout(ada, 'ada: same cash-out key, another amount (422)', cardA, 12_346, 'ada-cashout-1');
    await cashout(ada, 'ada: cashes out to PayPal on Free (403)', cardA, 1_000, 'ada-cashout-2', 'paypal');
    await cashout(ada, 'ada: cashes out 1 cent (400)', cardA, 1, 'ada-cashout-3');
    await cashout(ada, 'ada: cashes out more than card A holds (400)', cardA, 5_000_000, 'ada-cashout-4');
    const remainingB = (await step('ada: looks at card B', ada, 'GET', `/api/cards/${cardB}`)).remainingAmountCents as number;
    await cashout(ada, 'ada: cashes out all of card B', cardB, remainingB, 'ada-cashout-5');
    await cashout(ada, 'ada: cashes out emptied card B (409 no_balance)', cardB, 500, 'ada-cashout-6');
    await purchase(ada, 'ada: buys with cashed-out card B (402 declined)', cardB, 500, 'ada-purchase-4');

    // ---- Ada upgrades to Premium and uses her boost on draft D ----
    const upgrade = { plan: 'premium', billingCycle: 'monthly', card: { name: 'Ada Lovelace', number: '4111 1111 1111 1111', expMonth: 12, expYear: EXP_YEAR, cvv: '123' } };
    const upgradeFingerprint = { plan: 'premium', billingCycle: 'monthly', card: { brand: 'visa', last4: '1111' } };
    await step('ada: upgrades to Premium with an expired card (400)', ada, 'POST', '/api/subscription/upgrade', { ...upgrade, card: { ...upgrade.card, expMonth: 5, expYear: 2021 } }, 'ada-upgrade-expired');
    await step('ada: upgrades to Premium, monthly', ada, 'POST', '/api/subscription/upgrade', upgrade, 'ada-upgrade', upgradeFingerprint);
    await step('ada: the same upgrade again (replayed)', ada, 'POST', '/api/subscription/upgrade', upgrade, 'ada-upgrade', upgradeFingerprint);
    await step('ada: her subscription', ada, 'GET', '/api/subscription');
    const qd2 = await quote(ada, 'ada: D, quote with the boost', d, { useBoost: true });
    await complete(ada, 'ada: D, complete with the boost', d, qd2, 'ada-complete-D', { useBoost: true });
    await step('ada: adds PayPal (Premium allows it)', ada, 'POST', '/api/payout-methods', PAYOUT_DETAILS.paypal);
    await cashout(ada, 'ada: cashes out $20 from card A to PayPal at the Premium rate', cardA, 2_000, 'ada-cashout-7', 'paypal');
    const e = await draft(ada, 'ada: starts combine E, $30', '30');
    await add(ada, 'ada: E, Visa', e, card('visa', TEST_VISA, e.funding.suggestedChargeCents.card));
    const qe = await quote(ada, 'ada: E, quote with a boost she no longer has', e, { useBoost: true });
    await complete(ada, 'ada: E, complete with that boost (409)', e, qe, 'ada-complete-E', { useBoost: true });
    await step('ada: deletes draft E (its hold voided)', ada, 'DELETE', `/api/combines/${e.id}`);

    // ---- Bob: the launch promo ($1,000), underfunded first; a card of his as a source, refused twice ----
    await step('bob: adds ACH with its details', bob, 'POST', '/api/payout-methods', PAYOUT_DETAILS.ach);
    const p = await draft(bob, 'bob: starts combine P, $1,000', '1000');
    await add(bob, 'bob: P, Visa $600', p, card('visa', TEST_VISA, 60_000));
    const p2 = await add(bob, 'bob: P, Mastercard $300', p, card('mastercard', TEST_MASTERCARD, 30_000));
    const qp = await quote(bob, 'bob: P, quote (short of the total)', p);
    await complete(bob, 'bob: P, complete short of the total (409 underfunded)', p, qp, 'bob-complete-P-short');
    await add(bob, 'bob: P, a 1-cent Visa, less than its fees (400)', p, card('visa', TEST_VISA, 1));
    await add(bob, 'bob: P, Visa for the rest', p, card('visa', TEST_VISA, p2.funding.suggestedChargeCents.card));
    const qp2 = await quote(bob, 'bob: P, quote (claims a promo spot)', p);
    const doneP = await complete(bob, 'bob: P, complete', p, qp2, 'bob-complete-P');
    const cardP = doneP.card.id as string;
    await step('anyone: launch promo spots, one fewer', null, 'GET', '/api/promo');
    await cashout(bob, 'bob: cashes out $100 at the promo rate', cardP, 10_000, 'bob-cashout-1');
    const q = await draft(bob, 'bob: starts combine Q, $100', '100');
    await add(bob, 'bob: Q, $800 from card P', q, { type: 'internal', sourceCardId: cardP, chargeCents: 80_000 });
    const qq = await quote(bob, 'bob: Q, quote', q);
    await step('bob: freezes card P', bob, 'POST', `/api/cards/${cardP}/freeze`);
    await complete(bob, 'bob: Q, complete with card P frozen (409 card_frozen)', q, qq, 'bob-complete-Q');
    await step('bob: unfreezes card P', bob, 'POST', `/api/cards/${cardP}/unfreeze`);
    const leftP = (await step('bob: looks at card P', bob, 'GET', `/api/cards/${cardP}`)).remainingAmountCents as number;
    await cashout(bob, 'bob: cashes out card P down to $500', cardP, leftP - 50_000, 'bob-cashout-2');
    await complete(bob, 'bob: Q, complete, card P short (409 source_unavailable)', q, qq, 'bob-complete-Q');
    await step('bob: deletes draft Q', bob, 'DELETE', `/api/combines/${q.id}`);
    const r = await draft(bob, 'bob: starts combine R, $100', '100');
    const r1 = await add(bob, 'bob: R, Klarna $150', r, { type: 'bnpl', provider: 'klarna', chargeCents: 15_000 });
    await step("bob: R, Klarna's one-time card", bob, 'POST', `/api/combines/${r.id}/sources/${r1.sources[0].id}/bnpl-card`, { cardNumber: '4242 4242 4242 4242', expiry: '12/23', cvv: '123' });
    const qr = await quote(bob, 'bob: R, quote (promo running)', r);
    await complete(bob, 'bob: R, complete (the rebate paid at once)', r, qr, 'bob-complete-R');
    const u = await draft(bob, 'bob: starts combine U, $50, and leaves it', '50');
    await add(bob, 'bob: U, Visa', u, card('visa', TEST_VISA, u.funding.suggestedChargeCents.card));
    const qu = await quote(bob, 'bob: U, quote', u);

    // ---- Carol: a single-use card, spent down to a cent; then each looks at their lists ----
    const s = await draft(carol, 'carol: starts combine S, $25', '25');
    await add(carol, 'carol: S, Mastercard', s, card('mastercard', TEST_MASTERCARD, s.funding.suggestedChargeCents.card));
    const qs = await quote(carol, 'carol: S, quote a single-use card', s, { cardType: 'single-use' });
    const doneS = await complete(carol, 'carol: S, complete', s, qs, 'carol-complete-S', { cardType: 'single-use' });
    const cardS = doneS.card.id as string;
    await step('carol: saves ACH without its details', carol, 'POST', '/api/payout-methods', { method: 'ach' });
    await cashout(carol, 'carol: cashes out $5 to ACH without details (409)', cardS, 500, 'carol-cashout-1');
    await step('carol: enters her ACH details', carol, 'POST', '/api/payout-methods', PAYOUT_DETAILS.ach);
    await cashout(carol, 'carol: cashes out $5, the same key (the refusal kept nothing)', cardS, 500, 'carol-cashout-1');
    const leftS = (await step('carol: looks at card S', carol, 'GET', `/api/cards/${cardS}`)).remainingAmountCents as number;
    await purchase(carol, 'carol: buys all but a cent with card S', cardS, leftS - 1, 'carol-purchase-1', 'Grocer');
    await cashout(carol, 'carol: cashes out the cent (400)', cardS, 1, 'carol-cashout-2');
    await step('ada: her dashboard', ada, 'GET', '/api/dashboard');
    await step("ada: card A's transactions", ada, 'GET', `/api/cards/${cardA}/transactions`);
    await step('ada: her cash-outs', ada, 'GET', '/api/cashouts');
    await step('bob: his completed combines', bob, 'GET', '/api/combines?status=completed');

    // ---- A month later: Carol's card has expired with its cent; Bob's draft has lapsed ----
    clock += 31 * 86_400_000;
    await signIn('carol', '198.51.100.3', false, carol);
    await step('carol: closes her account, a cent on an expired card (409)', carol, 'POST', '/api/me/close-account');
    await signIn('bob', '198.51.100.2', false, bob);
    await complete(bob, 'bob: U, complete the draft of a month ago (409 draft_expired)', u, qu, 'bob-complete-U');
    await step('bob: a cash-out with an unknown field (400)', bob, 'POST', '/api/cashouts', { cardId: cardP, amountCents: 1_000, payoutMethod: 'ach', tip: 1 }, 'bob-cashout-3');

    // ---- The end of the day, read from the database ----
    expect((await checkLedger(app.database.db)).problems).toEqual([]);
    const raw = await readEndOfDay(app.database.db, (table, key) => bornAt.get(`${table}:${key}`) ?? 'unknown', fingerprints, log.calls.map((call, i) => ({ ...call, step: callSteps[i] ?? 'unknown' })));
    const issuedLast4 = new Set(raw.cards.map((row) => row.last4 as string));
    const normaliser = new Normaliser({ dayStartMs: DAY_START, realStartMs, issuedLast4 });
    const record: Json = { dayStart: new Date(DAY_START).toISOString(), steps: normaliser.normalise(steps), end: {} };
    for (const [section, rows] of Object.entries(raw)) {
      record.end[section] = normaliser.normalise(inStableOrder(rows as Array<{ step: string }>, [...stepNames, 'unknown'], normaliser));
    }

    if (process.env.UPDATE_SCRIPTED_DAY === '1') {
      writeFileSync(RECORD, `${JSON.stringify(record, null, 2)}\n`);
      return;
    }
    // Never written here without being asked: a missing record is a failure, not a new reference.
    expect(existsSync(RECORD), `${RECORD} is missing (UPDATE_SCRIPTED_DAY=1 writes it from the code under test)`).toBe(true);
    const recorded = JSON.parse(readFileSync(RECORD, 'utf8')) as Json;
    const found = differences(recorded, record);
    const shown = 150;
    expect(found.slice(0, shown), `the day differs from ${path.basename(RECORD)} in ${found.length} places${found.length > shown ? ` (the first ${shown} shown)` : ''}; UPDATE_SCRIPTED_DAY=1 rewrites it`).toEqual([]);
  });
});
