// Decision 168: where payouts go. Saving a payout method's details registers its destination with
// the payout provider, before the transaction that saves it and after the checks that allow it
// (docs/rules.md#outside-effects); only the provider's reference is kept, never the account number (nor, for ACH,
// the bank's routing number, which goes with it: decision 171). Every payout
// (a cash-out's, a BNPL rebate's) carries the destination decided with it, so a method removed or
// changed before the drain sends it still pays where the user chose at the time.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { addSource, completeWithQuote, registerUser, startCombine, type ApiUser } from '../../../../tests/helpers/api-client';
import { guardAdapters, type AdapterGuard } from '../../../../tests/helpers/adapter-guard';
import { queryRows, snapshotDatabase } from '../../../../tests/helpers/db-snapshot';
import { insertFundedCard } from '../../../../tests/helpers/fixtures';
import { textColumns } from '../../../../tests/helpers/scan-secrets';
import { createTestApp, testConfig, type TestApp } from '../../../../tests/helpers/test-app';
import { createTestDatabase, type TestDatabase } from '../../../../tests/helpers/test-db';
import { ROUTING_NUMBER_MESSAGES } from '../../../core/payout-details';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import type { DemoCallLog } from '../../adapters/demo-calls';
import type { DemoPayouts } from '../../adapters/payouts';
import type { Db } from '../../db/client';
import { moneyEffects, payoutMethods, rebates, users } from '../../db/schema';
import { enqueueEffects, type MoneyEffect } from '../../effects/money-effects';
import { checkLedger } from '../../ledger/check-ledger';
import { MONEY_RATE_LIMITS } from '../../lib/money-limits';
import { createLogger } from '../../logger';

/** A bank account number no other text in the database or the logs can contain by chance. */
const ACCOUNT = '7305 9911 4628 53';
const ACCOUNT_DIGITS = ACCOUNT.replace(/\D/g, '');
/**
 * Its bank's routing number (a real, published one: it passes the ABA checksum). Public, not a
 * secret, but nothing needs it after the registration either: kept nowhere (decision 171).
 */
const ROUTING = '2560-7497-4';
const ROUTING_DIGITS = ROUTING.replace(/\D/g, '');
const DEMO_DESTINATION = /^demo_dest_[0-9a-f-]{36}$/;

type Signed = ApiUser & { id: string };

async function signUp(app: FastifyInstance, db: Db, profile: Partial<typeof users.$inferInsert> = {}): Promise<Signed> {
  const user = await registerUser(app);
  const id = (await user.request('GET', '/api/me')).json().id as string;
  if (Object.keys(profile).length > 0) await db.update(users).set(profile).where(eq(users.id, id));
  return Object.assign(user, { id });
}

async function methodRow(db: Db, userId: string, method: string) {
  const [row] = await db.select().from(payoutMethods).where(and(eq(payoutMethods.userId, userId), eq(payoutMethods.method, method)));
  return row;
}

/** Every text, json and array value of every table, as one text. */
async function everyStoredText(db: Db): Promise<string> {
  const texts: string[] = [];
  for (const { table, column } of await textColumns(db)) {
    const rows = await queryRows<{ v: string | null }>(db, `select "${column}"::text as v from "${table}" where "${column}" is not null`);
    for (const row of rows) if (row.v) texts.push(`${table}.${column}: ${row.v}`);
  }
  return texts.join('\n');
}

/** A completed combine with one Klarna source of $150.00: a rebate of $9.75 (docs/rules.md#bnpl). */
async function completeKlarnaCombine(user: ApiUser): Promise<string> {
  const combine = await startCombine(user, '143.85', '0', 'dollars');
  const added = await addSource(user, combine.id, { type: 'bnpl', provider: 'klarna', chargeCents: 15_000 });
  const sourceId = added.json().sources[0].id as string;
  const entry = await user.request('POST', `/api/combines/${combine.id}/sources/${sourceId}/bnpl-card`, { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvv: '123' });
  if (entry.statusCode !== 200) throw new Error(`bnpl card ${entry.statusCode}: ${entry.body}`);
  const done = await completeWithQuote(user, combine.id);
  if (done.statusCode !== 201) throw new Error(`complete ${done.statusCode}: ${done.body}`);
  return combine.id as string;
}

describe('payout destinations', () => {
  // Built by hand rather than with createTestApp: the real logger at trace level, into memory, and
  // the demo adapters' record of calls in a file, so both can be searched for the account number.
  // A failed payout waits a minute before its retry, so a test can change the method meanwhile.
  let app: FastifyInstance;
  let database: TestDatabase;
  let guard: AdapterGuard;
  let calls: DemoCallLog;
  let callFile: string;
  let scratch: string;
  const logChunks: string[] = [];

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'payweave-destinations-'));
    callFile = join(scratch, 'demo-calls.jsonl');
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logChunks.push(chunk.toString('utf8'));
        done();
      },
    });
    database = await createTestDatabase();
    app = await buildApp({
      config: testConfig({ LOG_LEVEL: 'trace', EFFECT_RETRY_BASE_MS: '60000', DEMO_ADAPTER_LOG: callFile }),
      database,
      logger: createLogger({ level: 'trace', stream: sink }),
      serveWeb: false,
    });
    calls = (app.adapters.payouts as DemoPayouts).log;
    guard = guardAdapters(app.adapters);
    await app.ready();
  });
  afterEach(async () => {
    calls.clearFaults();
    expect((await checkLedger(database.db)).problems).toEqual([]);
    expect(guard.violations).toEqual([]);
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
    rmSync(scratch, { recursive: true, force: true });
  });

  const registrations = () => calls.effective('payouts.registerDestination');
  /** The payout the provider made for `reference` (one, whatever the retries). */
  const paid = (reference: string) => calls.effective('payouts.send').filter((c) => c.reference === reference);
  const effectRow = async (reference: string) => (await database.db.select().from(moneyEffects).where(eq(moneyEffects.reference, reference)))[0]!;
  /** Makes a payout that failed (and waits a minute) due again, and drains. */
  const retryNow = async (reference: string) => {
    await database.db.update(moneyEffects).set({ nextAttemptAt: new Date(Date.now() - 1_000) }).where(eq(moneyEffects.reference, reference));
    await app.effects.drain();
  };
  /** Saves a method with its details (for ACH, with ROUTING: decision 171), or without any (as older API clients did). */
  const addMethod = (user: ApiUser, method: string, detail?: string) =>
    user.request('POST', '/api/payout-methods', detail === undefined ? { method } : method === 'ach' ? { method, detail, routingNumber: ROUTING } : { method, detail });

  it('saving the details registers the destination; the provider’s reference is kept, the account and routing numbers nowhere (rows, outbox, logs, the demo record)', async () => {
    const user = await signUp(app, database.db, { subscription: 'premium+' });
    const before = registrations().length;
    // The provider is given both numbers in full, once (decision 171).
    const register = vi.spyOn(app.adapters.payouts, 'registerDestination');
    const ach = await addMethod(user, 'ach', ACCOUNT);
    expect(ach.statusCode, ach.body).toBe(201);
    expect(register.mock.calls).toEqual([[{ method: 'ach', payTo: { method: 'ach', routingNumber: ROUTING_DIGITS, accountNumber: ACCOUNT_DIGITS }, reference: expect.stringMatching(/^destination:/) }]]);
    register.mockRestore();
    expect(ach.json().methods).toEqual([expect.objectContaining({ method: 'ach', detail: '•••• 2853' })]);
    const row = await methodRow(database.db, user.id, 'ach');
    expect(row!.destinationRef).toMatch(DEMO_DESTINATION);
    // One registration, recorded like a payout: its reference and the destination it made.
    const made = registrations().slice(before);
    expect(made).toEqual([expect.objectContaining({ op: 'payouts.registerDestination', reference: expect.stringMatching(/^destination:/), destination: row!.destinationRef, outcome: 'done' })]);
    // PayPal and Cash App too, each with a destination of its own.
    expect((await addMethod(user, 'paypal', 'Ada@Example.com')).statusCode).toBe(201);
    expect((await addMethod(user, 'cashapp', '$ada')).statusCode).toBe(201);
    const refs = (await database.db.select().from(payoutMethods).where(eq(payoutMethods.userId, user.id))).map((r) => r.destinationRef);
    expect(new Set(refs).size).toBe(3);
    for (const ref of refs) expect(ref).toMatch(DEMO_DESTINATION);
    expect(registrations().length - before).toBe(3);
    // The API shows the masked detail, not the provider's reference.
    expect(JSON.stringify((await user.request('GET', '/api/payout-methods')).json())).not.toContain('demo_dest_');

    // A cash-out and its payout through the drain, then: the account number is in no table, no
    // log line (trace level), no record of the demo provider's calls, in memory or on disk; nor
    // is the routing number (public, but kept nowhere: decision 171).
    const cardId = await insertFundedCard(database.db, user.id, 5_000);
    const cashout = await user.request('POST', '/api/cashouts', { cardId, amountCents: 2_000, payoutMethod: 'ach' }, { 'idempotency-key': randomUUID() });
    expect(cashout.statusCode, cashout.body).toBe(201);
    await app.effects.drain();
    await app.effects.idle();
    expect(paid(cashout.json().payoutId)).toEqual([expect.objectContaining({ destination: row!.destinationRef })]);
    const logs = logChunks.join('');
    expect(logs).toContain('/api/payout-methods');
    const places = { tables: await everyStoredText(database.db), logs, calls: JSON.stringify(calls.calls), callFile: readFileSync(callFile, 'utf8') };
    for (const [where, text] of Object.entries(places)) {
      expect(text.length, where).toBeGreaterThan(0);
      expect(text.replace(/[\s-]/g, ''), where).not.toContain(ACCOUNT_DIGITS);
      expect(text.replace(/[\s-]/g, ''), where).not.toContain(ROUTING_DIGITS);
    }
  });

  it('ACH takes its bank’s routing number with the account (decision 171): each wrong or missing part is a 400 naming its field, and registers nothing', async () => {
    const user = await signUp(app, database.db, { subscription: 'premium+' });
    const before = registrations().length;
    const refusals: Array<[Record<string, string>, string, string]> = [
      [{ method: 'ach', detail: ACCOUNT }, ROUTING_NUMBER_MESSAGES.missing, '/routingNumber'],
      [{ method: 'ach', detail: ACCOUNT, routingNumber: '25607497' }, ROUTING_NUMBER_MESSAGES.missing, '/routingNumber'],
      [{ method: 'ach', detail: ACCOUNT, routingNumber: '256074975' }, ROUTING_NUMBER_MESSAGES.invalid, '/routingNumber'],
      [{ method: 'ach', routingNumber: ROUTING }, 'Enter the bank account number (4 to 17 digits).', '/detail'],
      // PayPal and Cash App take no routing number: said, not ignored.
      [{ method: 'paypal', detail: 'ada@example.com', routingNumber: ROUTING }, ROUTING_NUMBER_MESSAGES.notAch, '/routingNumber'],
      [{ method: 'cashapp', routingNumber: ROUTING }, ROUTING_NUMBER_MESSAGES.notAch, '/routingNumber'],
    ];
    for (const [body, message, path] of refusals) {
      const res = await user.request('POST', '/api/payout-methods', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'validation_error', message, details: expect.arrayContaining([{ path, message }]) });
    }
    // Both wrong: both named, the routing number first (the form's order).
    const both = await user.request('POST', '/api/payout-methods', { method: 'ach', detail: '12', routingNumber: '1' });
    expect(both.json().error).toMatchObject({ message: ROUTING_NUMBER_MESSAGES.missing, details: [{ path: '/routingNumber', message: ROUTING_NUMBER_MESSAGES.missing }, { path: '/detail', message: 'Enter the bank account number (4 to 17 digits).' }] });
    expect(registrations().length - before).toBe(0);
    expect(await database.db.select().from(payoutMethods).where(eq(payoutMethods.userId, user.id))).toEqual([]);
    // Right, with spaces or dashes: saved, and shown as the account's last 4 digits only.
    const saved = await user.request('POST', '/api/payout-methods', { method: 'ach', detail: ACCOUNT, routingNumber: '256 074 974' });
    expect(saved.statusCode, saved.body).toBe(201);
    expect(saved.json().methods).toEqual([expect.objectContaining({ method: 'ach', detail: '•••• 2853' })]);
    expect(registrations().length - before).toBe(1);
  });

  it('refused details register nothing: checked first (form, plan, already saved), then registered', async () => {
    const free = await signUp(app, database.db);
    const before = registrations().length;
    expect((await addMethod(free, 'ach', '12')).statusCode).toBe(400);
    const paypal = await addMethod(free, 'paypal', 'ada@example.com');
    expect(paypal.statusCode).toBe(403);
    expect(paypal.json().error.message).toBe('PayPal payouts are not available on the Free plan.');
    expect((await addMethod(free, 'ach', ACCOUNT)).statusCode).toBe(201);
    const twice = await addMethod(free, 'ach', '123456');
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toBe('ACH is already added as a payout method');
    expect(registrations().length - before).toBe(1);
    // Without details (an API client older than payout details) nothing is registered: the destination is unknown.
    const premium = await signUp(app, database.db, { subscription: 'premium' });
    expect((await addMethod(premium, 'paypal')).statusCode).toBe(201);
    expect((await methodRow(database.db, premium.id, 'paypal'))!.destinationRef).toBeNull();
    expect(registrations().length - before).toBe(1);
  });

  // docs/rules.md#security: a script with one account cannot spend the provider's quota, which every user
  // shares, by adding and removing a method in a loop.
  it('registrations are limited per user (10 in 10 minutes): the 11th is 429 before any call, refusals do not count', async () => {
    const user = await signUp(app, database.db);
    const other = await signUp(app, database.db);
    const before = registrations().length;
    expect((await addMethod(user, 'ach', '12')).statusCode).toBe(400);
    for (let i = 0; i < MONEY_RATE_LIMITS.payoutDestination.points; i += 1) {
      expect((await addMethod(user, 'ach', ACCOUNT)).statusCode).toBe(201);
      expect((await addMethod(user, 'ach', ACCOUNT)).statusCode).toBe(409);
      expect((await user.request('DELETE', '/api/payout-methods/ach')).statusCode).toBe(200);
    }
    const limited = await addMethod(user, 'ach', ACCOUNT);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('rate_limited');
    expect(limited.headers['retry-after']).toBeDefined();
    expect(registrations().length - before).toBe(MONEY_RATE_LIMITS.payoutDestination.points);
    expect(await database.db.select().from(payoutMethods).where(eq(payoutMethods.userId, user.id))).toEqual([]);
    // Another user is not held by it.
    expect((await addMethod(other, 'ach', ACCOUNT)).statusCode).toBe(201);
  });

  it('a registration the provider fails: 503, nothing saved; the retry registers and saves', async () => {
    const user = await signUp(app, database.db);
    calls.inject('payouts.registerDestination', 'fail', [1]);
    const failed = await addMethod(user, 'ach', ACCOUNT);
    expect(failed.statusCode).toBe(503);
    expect(failed.json().error.code).toBe('service_unavailable');
    expect(await database.db.select().from(payoutMethods).where(eq(payoutMethods.userId, user.id))).toEqual([]);
    const retried = await addMethod(user, 'ach', ACCOUNT);
    expect(retried.statusCode, retried.body).toBe(201);
    expect((await methodRow(database.db, user.id, 'ach'))!.destinationRef).toMatch(DEMO_DESTINATION);
  });

  it('a cash-out pays the destination chosen at cash-out time, even when the method is removed and saved again with other details before the payout is sent', async () => {
    const user = await signUp(app, database.db);
    expect((await addMethod(user, 'ach', ACCOUNT)).statusCode).toBe(201);
    const chosen = (await methodRow(database.db, user.id, 'ach'))!.destinationRef!;
    const cardId = await insertFundedCard(database.db, user.id, 10_000);
    // The first try of the payout fails: the drain tries again in a minute.
    calls.inject('payouts.send', 'fail', [1]);
    const res = await user.request('POST', '/api/cashouts', { cardId, amountCents: 5_000, payoutMethod: 'ach' }, { 'idempotency-key': randomUUID() });
    expect(res.statusCode, res.body).toBe(201);
    const reference = res.json().payoutId as string;
    await app.effects.idle();
    expect(await effectRow(reference)).toMatchObject({ status: 'pending', attempts: 1, payload: { method: 'ach', amountCents: 4_950, destination: chosen } });
    expect(paid(reference)).toEqual([]);

    // Meanwhile the user removes the method and saves it again with another account.
    expect((await user.request('DELETE', '/api/payout-methods/ach')).statusCode).toBe(200);
    expect((await addMethod(user, 'ach', '555000111')).statusCode).toBe(201);
    const now = (await methodRow(database.db, user.id, 'ach'))!.destinationRef;
    expect(now).toMatch(DEMO_DESTINATION);
    expect(now).not.toBe(chosen);

    await retryNow(reference);
    expect(paid(reference)).toEqual([expect.objectContaining({ amountCents: 4_950, destination: chosen })]);
    expect(await effectRow(reference)).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('a cash-out to a method removed before the payout is sent, and not saved again, still pays where it was chosen', async () => {
    const user = await signUp(app, database.db);
    expect((await addMethod(user, 'ach', ACCOUNT)).statusCode).toBe(201);
    const chosen = (await methodRow(database.db, user.id, 'ach'))!.destinationRef!;
    const cardId = await insertFundedCard(database.db, user.id, 10_000);
    calls.inject('payouts.send', 'fail', [1]);
    const res = await user.request('POST', '/api/cashouts', { cardId, amountCents: 1_000, payoutMethod: 'ach' }, { 'idempotency-key': randomUUID() });
    expect(res.statusCode, res.body).toBe(201);
    await app.effects.idle();
    expect((await user.request('DELETE', '/api/payout-methods/ach')).statusCode).toBe(200);
    expect(await database.db.select().from(payoutMethods).where(eq(payoutMethods.userId, user.id))).toEqual([]);
    await retryNow(res.json().payoutId);
    expect(paid(res.json().payoutId)).toEqual([expect.objectContaining({ destination: chosen })]);
  });

  it('BNPL rebates: paid to the preferred method’s destination decided with them, even after the method is removed; at completion too', async () => {
    const user = await signUp(app, database.db);
    const first = await completeKlarnaCombine(user);
    const [pending] = await database.db.select().from(rebates).where(eq(rebates.combineId, first));
    expect(pending).toMatchObject({ status: 'pending' });
    const reference = `rebate:${pending!.id}`;

    // The first method pays it; its first try fails, so it is still to be sent a minute later.
    calls.inject('payouts.send', 'fail', [1]);
    const added = await addMethod(user, 'ach', ACCOUNT);
    expect(added.json()).toMatchObject({ rebatesPaid: { count: 1, amountCents: 975 } });
    const chosen = (await methodRow(database.db, user.id, 'ach'))!.destinationRef!;
    await app.effects.drain();
    expect(await effectRow(reference)).toMatchObject({ kind: 'rebate_payout', status: 'pending', payload: { destination: chosen } });

    // Removed, and saved again with another account, before the retry.
    expect((await user.request('DELETE', '/api/payout-methods/ach')).statusCode).toBe(200);
    expect((await addMethod(user, 'ach', '555000111')).statusCode).toBe(201);
    const later = (await methodRow(database.db, user.id, 'ach'))!.destinationRef!;
    expect(later).not.toBe(chosen);
    await retryNow(reference);
    expect(paid(reference)).toEqual([expect.objectContaining({ amountCents: 975, destination: chosen })]);

    // With a preferred method already there, the next rebate is paid at completion, to its destination now.
    const second = await completeKlarnaCombine(user);
    const [atCompletion] = await database.db.select().from(rebates).where(eq(rebates.combineId, second));
    expect(atCompletion).toMatchObject({ status: 'processed', payoutMethod: 'ach' });
    await app.effects.drain();
    expect(paid(`rebate:${atCompletion!.id}`)).toEqual([expect.objectContaining({ amountCents: 975, destination: later })]);
  });

  // Decision 172: a rebate is the user's money and is paid only where the provider knows. A
  // preferred method saved without details keeps it pending, never a payout to nowhere, until its
  // details are entered: then it is paid, to the destination registered with them.
  it('a preferred method without a destination: rebates stay pending (when saved, at completion, when chosen); its details entered pay them there', async () => {
    const user = await signUp(app, database.db);
    const first = await completeKlarnaCombine(user);
    const rebateEffects = async () => (await database.db.select().from(moneyEffects).where(and(eq(moneyEffects.userId, user.id), eq(moneyEffects.kind, 'rebate_payout'))));
    const rebateRows = () => database.db.select().from(rebates).where(eq(rebates.userId, user.id));

    // Saved without details (an API client older than payout details): preferred, but nothing to pay to.
    const bare = await addMethod(user, 'ach');
    expect(bare.statusCode).toBe(201);
    expect(bare.json()).toMatchObject({ preferredPayout: 'ach', rebatesPaid: { count: 0, amountCents: 0 }, pendingRebates: { count: 1, amountCents: 975 }, methods: [{ method: 'ach', needsDetails: true }] });
    // At completion, with the preferred method there: pending too.
    const second = await completeKlarnaCombine(user);
    // Chosen again as preferred: still nothing paid.
    const chosen = await user.request('PUT', '/api/payout-methods/preferred', { method: 'ach' });
    expect(chosen.json()).toMatchObject({ rebatesPaid: { count: 0, amountCents: 0 }, pendingRebates: { count: 2, amountCents: 1_950 } });
    expect((await rebateRows()).map((r) => [r.combineId, r.status, r.payoutMethod, r.journalId])).toEqual(
      expect.arrayContaining([
        [first, 'pending', null, null],
        [second, 'pending', null, null],
      ]),
    );
    expect(await rebateEffects()).toEqual([]);

    // Its details entered: registered (outside any transaction: the guard), saved, and the rebates paid there.
    const before = registrations().length;
    const entered = await addMethod(user, 'ach', ACCOUNT);
    expect(entered.statusCode, entered.body).toBe(200);
    expect(entered.json()).toMatchObject({ message: 'ACH details saved', rebatesPaid: { count: 2, amountCents: 1_950 }, pendingRebates: { count: 0, amountCents: 0 }, methods: [{ method: 'ach', detail: '•••• 2853', needsDetails: false }] });
    expect(registrations().length - before).toBe(1);
    const destination = (await methodRow(database.db, user.id, 'ach'))!.destinationRef!;
    expect(destination).toMatch(DEMO_DESTINATION);
    expect((await rebateRows()).every((r) => r.status === 'processed' && r.payoutMethod === 'ach' && r.journalId !== null)).toBe(true);
    await app.effects.drain();
    const sent = (await rebateEffects()).map((e) => e.reference);
    expect(sent).toHaveLength(2);
    for (const reference of sent) expect(paid(reference)).toEqual([expect.objectContaining({ amountCents: 975, destination })]);
  });

  it('a payout written before decision 168 (no destination in its row) still drains in demo mode: the destination is unknown', async () => {
    const user = await signUp(app, database.db);
    const transactionId = randomUUID();
    const reference = `cashout:${transactionId}`;
    // As such a row was written: the payload without its destination.
    const old = { kind: 'payout', reference, userId: user.id, payload: { method: 'ach', amountCents: 1_234, transactionId } } as unknown as MoneyEffect;
    await enqueueEffects(database.db, [old]);
    await app.effects.drain();
    expect(paid(reference)).toEqual([expect.objectContaining({ amountCents: 1_234, destination: null, outcome: 'done' })]);
    expect(await effectRow(reference)).toMatchObject({ status: 'done' });
  });

  it('the test guard catches a registration made inside a transaction', async () => {
    await database.db.transaction(async () => {
      await expect(app.adapters.payouts.registerDestination({ method: 'ach', payTo: { method: 'ach', routingNumber: ROUTING_DIGITS, accountNumber: '0000' }, reference: 'inside' })).rejects.toThrow(/inside a database transaction/);
    });
    expect(guard.violations).toEqual(['payouts.registerDestination was called inside a database transaction (docs/rules.md#outside-effects)']);
    guard.violations.length = 0; // expected here; any other fails afterEach
  });
});

describe('payout destinations in live mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { DEMO_MODE: 'false' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("saving details answers 501 'Live mode not yet implemented' (the provider's registration) and changes nothing; the checks before it still answer theirs", async () => {
    const user = await signUp(t.app, t.database.db, { subscription: 'premium' });
    const exclusions = { tables: ['rate_limit_counters'], columns: { sessions: ['last_seen_at'] } };
    const before = await snapshotDatabase(t.database.db, exclusions);
    const res = await user.request('POST', '/api/payout-methods', { method: 'ach', detail: ACCOUNT, routingNumber: ROUTING });
    expect(res.statusCode).toBe(501);
    expect(res.json().error).toMatchObject({ code: 'live_mode_not_implemented', message: 'Live mode not yet implemented' });
    expect(await snapshotDatabase(t.database.db, exclusions)).toEqual(before);
    expect(await t.database.db.select().from(payoutMethods).where(eq(payoutMethods.userId, user.id))).toEqual([]);
    // Refusals decided before the outside call are answered as in demo mode.
    expect((await user.request('POST', '/api/payout-methods', { method: 'ach', detail: '12' })).statusCode).toBe(400);
    expect((await user.request('POST', '/api/payout-methods', { method: 'cashapp', detail: '$ada' })).statusCode).toBe(403);
    expect(await snapshotDatabase(t.database.db, exclusions)).toEqual(before);
  });
});
