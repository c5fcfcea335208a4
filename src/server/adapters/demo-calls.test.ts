// the demo outside systems record every call they receive, with its reference,
// and break on demand at any step (pre-authorisation, card issue, capture, void, payout, rebate
// payout, e-mail), configured the way a server process is: DEMO_FAULTS and DEMO_ADAPTER_LOG.
// A step that breaks before our transaction answers a clear 503 and writes nothing; the retry works.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSource, completeWithQuote, PAYOUT_DETAILS, registerUser, startCombine, TEST_VISA } from '../../../tests/helpers/api-client';
import { createTestApp, testConfig, type TestApp } from '../../../tests/helpers/test-app';
import { ConfigError } from '../config';
import { cards, combines, combineSources } from '../db/schema';
import { PARTNER_UNAVAILABLE_MESSAGE } from '../plugins/errors';
import { DemoCallLog, type DemoCall } from './demo-calls';

describe('fault specs (DEMO_FAULTS)', () => {
  it('a spec that cannot be read stops the server at start-up, saying what it expects', () => {
    for (const spec of ['payouts.sned:fail@1', 'payouts.send:explode@1', 'payouts.send:fail@', 'payouts.send:fail@3-1']) {
      expect(() => testConfig({ DEMO_FAULTS: spec })).toThrow(ConfigError);
    }
    expect(() => testConfig({ DEMO_FAULTS: 'payouts.sned:fail@1' })).toThrow(/DEMO_FAULTS.*operations: processor\.preauthorize, .*mailer\.send/s);
  });

  it('a lost answer is done once: the retry with the same reference is a duplicate with the first answer', async () => {
    const log = new DemoCallLog({ faults: 'payouts.send:lose-answer@1' });
    let done = 0;
    const send = () => log.call('payouts.send', 'cashout:1', 500, () => ({ payoutId: `p${(done += 1)}` }));
    await expect(send()).rejects.toThrow(/dropped before the answer/);
    expect(await send()).toEqual({ payoutId: 'p1' });
    expect(done).toBe(1);
    expect(log.calls.map((c) => c.outcome)).toEqual(['answer-lost', 'duplicate']);
    expect(log.effective('payouts.send')).toHaveLength(1);
  });

  it('a long-running demo does not grow with every call: the oldest references and calls are forgotten past their bounds (decision 154)', async () => {
    const log = new DemoCallLog({ rememberedReferences: 3, keptCalls: 4 });
    let done = 0;
    const send = (n: number) => log.call('payouts.send', `cashout:${n}`, 500, () => ({ payoutId: `p${(done += 1)}` }));
    for (let n = 1; n <= 10; n += 1) await send(n);
    // The three newest are still known: a retry is a duplicate, nothing is sent again.
    expect(await send(10)).toEqual({ payoutId: 'p10' });
    expect(await send(8)).toEqual({ payoutId: 'p8' });
    expect(done).toBe(10);
    // The oldest is forgotten, as a real processor forgets an old idempotency key.
    expect(await send(1)).toEqual({ payoutId: 'p11' });
    // 13 calls so far, of which the newest are kept, at most twice the bound.
    expect(log.calls.length).toBeGreaterThanOrEqual(4);
    expect(log.calls.length).toBeLessThan(8);
    expect(log.calls.at(-1)).toMatchObject({ reference: 'cashout:1', outcome: 'done' });
    expect(log.calls.at(-2)).toMatchObject({ reference: 'cashout:8', outcome: 'duplicate' });
  });
});

describe('demo adapters record and break every step', () => {
  let dir: string;
  let t: TestApp; // one app per test (each its own DEMO_FAULTS), closed by the test
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'payweave-calls-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const fileCalls = (file: string): Array<DemoCall & { result?: unknown }> =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as DemoCall);

  it.each(['fail', 'timeout', 'lose-answer'] as const)(
    'pre-authorisation %s: 503 with a message for a person, no source written; the retry holds the card',
    async (mode) => {
      const file = path.join(dir, `preauth-${mode}.jsonl`);
      t = await createTestApp({ env: { DEMO_FAULTS: `processor.preauthorize:${mode}@1`, DEMO_ADAPTER_LOG: file, DEMO_FAULT_TIMEOUT_MS: '20' } });
      try {
        const user = await registerUser(t.app);
        const combine = await startCombine(user, '300', '0');
        const broken = await addSource(user, combine.id, { chargeCents: combine.funding.suggestedChargeCents.card });
        expect(broken.statusCode, broken.body).toBe(503);
        expect(broken.json()).toEqual({ error: { code: 'service_unavailable', message: PARTNER_UNAVAILABLE_MESSAGE } });
        expect(broken.headers['retry-after']).toBe('5');
        expect(await t.database.db.select().from(combineSources).where(eq(combineSources.combineId, combine.id))).toEqual([]);

        const retried = await addSource(user, combine.id, { chargeCents: combine.funding.suggestedChargeCents.card });
        expect(retried.statusCode, retried.body).toBe(201);
        const [source] = await t.database.db.select().from(combineSources).where(eq(combineSources.combineId, combine.id));
        // Two asks, two references (each request asks anew); the one held is the one recorded.
        const recorded = fileCalls(file).filter((c) => c.op === 'processor.preauthorize');
        expect(recorded.map((c) => c.outcome)).toEqual([mode === 'fail' ? 'failed' : mode === 'timeout' ? 'timed-out' : 'answer-lost', 'done']);
        expect(new Set(recorded.map((c) => c.reference)).size).toBe(2);
        for (const call of recorded) {
          expect(call.reference).toMatch(new RegExp(`^preauth:${combine.id}:[0-9a-f-]{36}$`));
          expect(call.amountCents).toBe(combine.funding.suggestedChargeCents.card);
        }
        expect(source?.authorizationId).toMatch(/^auth_demo_/);
        // The file holds references and amounts: no card number, CVV or processor token.
        const text = readFileSync(file, 'utf8');
        expect(text).not.toContain(TEST_VISA);
        expect(text).not.toContain('tok_demo_');
      } finally {
        await t.close();
      }
    },
  );

  it('card issue failing at completion: 503, no card, no charge, the draft untouched; the retry with the same key completes', async () => {
    const file = path.join(dir, 'issue.jsonl');
    t = await createTestApp({ env: { DEMO_FAULTS: 'processor.issueCard:fail@1', DEMO_ADAPTER_LOG: file } });
    try {
      const user = await registerUser(t.app);
      const combine = await startCombine(user, '300', '0');
      expect((await addSource(user, combine.id, { chargeCents: combine.funding.suggestedChargeCents.card })).statusCode).toBe(201);
      const key = randomUUID();
      const broken = await completeWithQuote(user, combine.id, { key });
      expect(broken.statusCode, broken.body).toBe(503);
      expect(broken.json().error.code).toBe('service_unavailable');
      const [row] = await t.database.db.select().from(combines).where(eq(combines.id, combine.id));
      expect(row?.status).toBe('in_progress');
      expect(await t.database.db.select().from(cards).where(eq(cards.combineId, combine.id))).toEqual([]);
      await t.app.effects.drain();
      expect(t.calls.calls.filter((c) => c.op === 'processor.capture')).toEqual([]);

      const done = await completeWithQuote(user, combine.id, { key });
      expect(done.statusCode, done.body).toBe(201);
      await t.app.effects.drain();
      expect(t.calls.effective('processor.capture')).toHaveLength(1);
      const issued = fileCalls(file).filter((c) => c.op === 'processor.issueCard');
      expect(issued.map((c) => c.outcome)).toEqual(['failed', 'done']);
      expect(new Set(issued.map((c) => c.reference)).size).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('capture, void, payout and rebate payout each break by DEMO_FAULTS and are carried out once by the drain', async () => {
    const file = path.join(dir, 'effects.jsonl');
    t = await createTestApp({
      env: {
        DEMO_FAULTS: 'processor.capture:fail@1;processor.release:timeout@1;payouts.send:lose-answer@1;payouts.send:fail@2',
        DEMO_ADAPTER_LOG: file,
        DEMO_FAULT_TIMEOUT_MS: '20',
      },
    });
    try {
      const user = await registerUser(t.app);
      // A capture: one completed combine with one hold.
      const bought = await startCombine(user, '300', '0');
      expect((await addSource(user, bought.id, { chargeCents: bought.funding.suggestedChargeCents.card })).statusCode).toBe(201);
      const done = await completeWithQuote(user, bought.id);
      expect(done.statusCode, done.body).toBe(201);
      const cardId = done.json().card.id as string;
      // A void: a draft deleted with its hold.
      const dropped = await startCombine(user, '200', '0');
      expect((await addSource(user, dropped.id, { chargeCents: dropped.funding.suggestedChargeCents.card })).statusCode).toBe(201);
      expect((await user.request('DELETE', `/api/combines/${dropped.id}`)).statusCode).toBeLessThan(300);
      // A payout: a cash-out.
      expect((await user.request('POST', '/api/payout-methods', PAYOUT_DETAILS.ach)).statusCode).toBe(201);
      const cashout = await user.request('POST', '/api/cashouts', { cardId, amountCents: 1_000, payoutMethod: 'ach' }, { 'idempotency-key': randomUUID() });
      expect(cashout.statusCode, cashout.body).toBe(201);
      for (let round = 0; round < 5; round += 1) await t.app.effects.drain();

      const byOp = (op: string) => fileCalls(file).filter((c) => c.op === op);
      expect(byOp('processor.capture').map((c) => c.outcome)).toEqual(['failed', 'done']);
      expect(byOp('processor.release').map((c) => c.outcome)).toEqual(['timed-out', 'done']);
      const payoutReference = `cashout:${cashout.json().cashout.id as string}`;
      expect(byOp('payouts.send').filter((c) => c.reference === payoutReference).map((c) => c.outcome)).toEqual(['answer-lost', 'failed', 'duplicate']);
      for (const op of ['processor.capture', 'processor.release', 'payouts.send'] as const) {
        const effective = byOp(op).filter((c) => c.outcome === 'done' || c.outcome === 'answer-lost');
        expect(effective, op).toHaveLength(1);
      }
    } finally {
      await t.close();
    }
  });
});
