import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { outbox } from '../../db/schema';
import { SUPPORT_EMAIL } from '../../lib/support-address';
import { SUPPORT_MESSAGES_PER_IP_PER_HOUR } from './routes';

describe('POST /api/support', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const send = (body: unknown, ip = '192.0.2.10') =>
    t.app.inject({ method: 'POST', url: '/api/support', remoteAddress: ip, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  const supportMail = () => t.database.db.select().from(outbox).where(eq(outbox.toAddress, SUPPORT_EMAIL));

  it('refuses a message with the form’s own words and queues nothing', async () => {
    const cases: Array<[unknown, string]> = [
      [{ name: ' ', email: 'ada@example.com', message: 'Hello' }, 'Name is required'],
      [{ name: 'Ada', email: 'ada@example.com', message: '   ' }, 'Message is required'],
      [{ name: 'Ada', email: 'ada@example.com', message: 'x'.repeat(5001) }, 'Message must be at most 5000 characters'],
    ];
    for (const [body, message] of cases) {
      const res = await send(body, '192.0.2.1');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: { code: 'validation_error', message } });
    }
    const badEmail = await send({ name: 'Ada', email: 'not-an-email', message: 'Hello' }, '192.0.2.1');
    expect(badEmail.statusCode).toBe(400);
    expect(await supportMail()).toHaveLength(0);
  });

  it('queues the message for the support mailbox with any pasted card number removed', async () => {
    const res = await send({ name: 'Ada Lovelace', email: 'Ada@Example.com', message: 'My card 4242 4242 4242 4242 was declined. Order 123456.' });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ status: 'queued' });
    const [mail] = await supportMail();
    expect(mail?.subject).toBe('Support request from Ada Lovelace');
    expect(mail?.textBody).toContain('From: Ada Lovelace <Ada@Example.com>');
    expect(mail?.textBody).toContain('My card [card number removed] was declined. Order 123456.');
    expect(mail?.textBody).not.toMatch(/4242/);
  });

  it(`allows ${SUPPORT_MESSAGES_PER_IP_PER_HOUR} messages an hour per address, then answers 429`, async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= SUPPORT_MESSAGES_PER_IP_PER_HOUR; i += 1) statuses.push((await send({ name: 'Bot', email: 'bot@example.com', message: `spam ${i}` }, '198.51.100.77')).statusCode);
    expect(statuses).toEqual([...Array<number>(SUPPORT_MESSAGES_PER_IP_PER_HOUR).fill(202), 429]);
  });
});
