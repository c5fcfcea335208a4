// docs/rules.md#never-logged: one card-number scrubber (core/card-scrubber.ts) on every
// free-text field that is stored or logged. The attacker's notes: a card number with other digits
// written before it ("order 1234 4242 4242 4242 4242") slipped past the old filter, and the name
// field, the merchant of a purchase and an address's query string were not filtered at all.
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app';
import { CARD_NUMBER_MASK } from '../../../src/core/card-scrubber';
import { outbox } from '../../../src/server/db/schema';
import { createLogger } from '../../../src/server/logger';
import { SUPPORT_EMAIL } from '../../../src/server/lib/support-address';
import { createCard, registerUser, TEST_MASTERCARD, TEST_VISA } from '../../helpers/api-client';
import { scanDatabaseAndTexts } from '../../helpers/scan-secrets';
import { testConfig } from '../../helpers/test-app';
import { createTestDatabase, type TestDatabase } from '../../helpers/test-db';

const AMEX = '378282246310005';

describe('attacker: card numbers pasted into free text are kept nowhere', () => {
  let database: TestDatabase;
  let app: Awaited<ReturnType<typeof buildApp>>;
  const logChunks: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logChunks.push(chunk.toString('utf8'));
        done();
      },
    });
    app = await buildApp({ config: testConfig({ LOG_LEVEL: 'trace' }), database, logger: createLogger({ level: 'trace', stream: sink }), serveWeb: false });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('a support message and name with card numbers: the outbox holds the mask, the logs hold nothing', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/support',
      remoteAddress: '10.99.0.1',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        name: `Ada ${TEST_MASTERCARD.replace(/(\d{4})(?=\d)/g, '$1-')}`,
        email: 'ada@example.com',
        message: `order 1234 ${TEST_VISA.replace(/(\d{4})(?=\d)/g, '$1 ')} was declined, my amex is ${AMEX}. Thanks!`,
      }),
    });
    expect(res.statusCode, res.body).toBe(202);
    const [mail] = await database.db.select().from(outbox).where(eq(outbox.toAddress, SUPPORT_EMAIL));
    expect(mail?.subject).toBe(`Support request from Ada ${CARD_NUMBER_MASK}`);
    expect(mail?.textBody).toContain(`order 1234 ${CARD_NUMBER_MASK} was declined, my amex is ${CARD_NUMBER_MASK}. Thanks!`);
  });

  it('a purchase merchant and a query string with a card number: not stored, not logged', async () => {
    const user = await registerUser(app);
    const created = await createCard(user, '20');
    expect(created.statusCode, created.body).toBe(201);
    const cardId = (created.json() as { card: { id: string } }).card.id;
    const purchase = await user.request('POST', `/api/cards/${cardId}/purchases`, { merchant: `Shop ${TEST_VISA}`, amountCents: 100 }, { 'idempotency-key': randomUUID() });
    expect(purchase.statusCode, purchase.body).toBe(201);
    expect(JSON.stringify(purchase.json())).not.toContain(TEST_VISA);
    // Refused (an unknown query parameter), but its request line was logged.
    await app.inject({ method: 'GET', url: `/api/promo?note=${TEST_MASTERCARD}` });
  });

  it('no table, outbox row or log line holds any of the pasted numbers', async () => {
    const logs = logChunks.join('');
    expect(logs).toContain('incoming request');
    expect(logs).toContain(CARD_NUMBER_MASK);
    const result = await scanDatabaseAndTexts(database.db, { cardNumbers: [TEST_VISA, TEST_MASTERCARD, AMEX], texts: [{ where: 'logs', text: logs }] });
    expect(result.rowsScanned).toBeGreaterThan(10);
    expect(result.findings).toEqual([]);
  });
});
