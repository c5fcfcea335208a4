// Card testing (decision 158): adding a source pre-authorises the card and says whether it was
// approved, so a script with stolen card numbers could use PayWeave to sort live cards from dead
// ones. Card checks are limited per user (every attempt), declined checks per IP (whichever
// account they come from), and new drafts per user (each one holds up to 10 sources).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DECLINE_TEST_CARD } from '../../../src/core/cards';
import { combines } from '../../../src/server/db/schema';
import { CARD_CHECK_DECLINES_PER_IP, MONEY_RATE_LIMITS } from '../../../src/server/lib/money-limits';
import { TEST_VISA } from '../../helpers/api-client';
import { client, registerVia, type TestClient } from '../../helpers/auth-client';
import { createTestApp, type TestApp } from '../../helpers/test-app';

const MAX_SOURCES_PER_DRAFT = 10;

describe('attacker: card testing through the wizard', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  async function signedUp(ip: string): Promise<TestClient> {
    const c = client(t.app, ip);
    expect((await registerVia(c, `tester-${randomUUID()}@example.com`)).statusCode).toBe(201);
    return c;
  }

  async function draft(c: TestClient): Promise<string> {
    const created = await c.request('POST', '/api/combines', { baseInput: '900', bufferInput: '0', bufferMode: 'percent' });
    expect(created.statusCode, created.body).toBe(201);
    return created.json().id as string;
  }

  const check = (c: TestClient, combineId: string, cardNumber: string) =>
    c.request('POST', `/api/combines/${combineId}/sources`, { type: 'credit', provider: 'visa', chargeCents: 100, cardNumber, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvv: '123' });

  const preauthorizations = () => t.calls.calls.filter((call) => call.op === 'processor.preauthorize').length;

  it('a user gets 30 card checks in 10 minutes, approved or declined, then 429 with the wait; the refused one reaches no processor', async () => {
    const c = await signedUp('10.77.0.1');
    const limit = MONEY_RATE_LIMITS.cardCheck.points;
    const statuses: number[] = [];
    let combineId = '';
    for (let i = 0; i < limit; i += 1) {
      if (i % MAX_SOURCES_PER_DRAFT === 0) combineId = await draft(c);
      // Alternating cards: declines count against the user like approvals.
      statuses.push((await check(c, combineId, i % 4 === 3 ? DECLINE_TEST_CARD : TEST_VISA)).statusCode);
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(23);
    expect(statuses.filter((s) => s === 402)).toHaveLength(7);
    const before = preauthorizations();
    const refused = await check(c, await draft(c), TEST_VISA);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toEqual({ code: 'rate_limited', message: 'Too many requests in a short time. Please wait 10 minutes and try again.' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(9 * 60);
    expect(preauthorizations()).toBe(before);
    // Another user is not affected.
    const other = await signedUp('10.77.0.2');
    expect((await check(other, await draft(other), TEST_VISA)).statusCode).toBe(201);
  });

  it('declined checks are counted per IP across accounts: after 20, that address is refused, others are not', async () => {
    const ip = '10.77.1.1';
    const limit = CARD_CHECK_DECLINES_PER_IP.points;
    // Spread over accounts, as a tester with several sign-ups would, each under its own user limit.
    let declined = 0;
    while (declined < limit) {
      const c = await signedUp(ip);
      const combineId = await draft(c);
      for (let i = 0; i < 5 && declined < limit; i += 1, declined += 1) expect((await check(c, combineId, DECLINE_TEST_CARD)).statusCode).toBe(402);
    }
    const fresh = await signedUp(ip);
    const before = preauthorizations();
    const refused = await check(fresh, await draft(fresh), TEST_VISA);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('rate_limited');
    expect(preauthorizations()).toBe(before);
    // Approved checks from a busy address do not count: another address is fine, and so is its first decline.
    const elsewhere = await signedUp('10.77.1.2');
    const elsewhereDraft = await draft(elsewhere);
    expect((await check(elsewhere, elsewhereDraft, TEST_VISA)).statusCode).toBe(201);
    expect((await check(elsewhere, elsewhereDraft, DECLINE_TEST_CARD)).statusCode).toBe(402);
  });

  it('new drafts: 30 per user in 10 minutes, then 429; nothing is created', async () => {
    const c = await signedUp('10.77.2.1');
    for (let i = 0; i < MONEY_RATE_LIMITS.draftCreation.points; i += 1) await draft(c);
    const drafts = async () => (await t.database.db.select({ id: combines.id }).from(combines)).length;
    const before = await drafts();
    const refused = await c.request('POST', '/api/combines', { baseInput: '50', bufferInput: '0', bufferMode: 'percent' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('rate_limited');
    expect(await drafts()).toBe(before);
  });
});
