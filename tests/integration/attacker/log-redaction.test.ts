// docs/rules.md#password-reset: reset and verification links never appear in logs, and a
// stored message's body is deleted once it is delivered, or after 24 hours. A stranger who reads
// the logs or the outbox table later finds no link that still opens an account.
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app';
import { outbox } from '../../../src/server/db/schema';
import { createLogger } from '../../../src/server/logger';
import { scheduledJobs } from '../../../src/server/scheduler';
import { client, registerVia } from '../../helpers/auth-client';
import { createTestApp, testConfig, type TestApp } from '../../helpers/test-app';
import { createTestDatabase, type TestDatabase } from '../../helpers/test-db';

const HOUR_MS = 60 * 60 * 1000;
const TOKEN_IN_LINK = /token=([A-Za-z0-9_-]{43})/;

async function waitFor<T>(read: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('attacker: no reset link in the logs or kept in the outbox', () => {
  let database: TestDatabase;
  let clock = new Date();
  const logChunks: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('the reset flow at info level: the token is in no log line, the request lines say [redacted]', async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logChunks.push(chunk.toString('utf8'));
        done();
      },
    });
    const logger = createLogger({ level: 'info', stream: sink });
    const app = await buildApp({ config: testConfig({ LOG_LEVEL: 'info' }), database, logger, serveWeb: false, now: () => clock });
    try {
      const email = `logs-${Date.now()}@example.com`;
      expect((await registerVia(client(app, '10.88.0.1'), email)).statusCode).toBe(201);
      expect((await client(app, '10.88.0.2').request('POST', '/api/auth/password-reset', { email })).statusCode).toBe(202);
      const [stored] = await database.db.select().from(outbox).where(eq(outbox.toAddress, email));
      const token = TOKEN_IN_LINK.exec(stored!.textBody)![1]!;
      // The link opened in a browser: the page's request line carries the token.
      await app.inject({ method: 'GET', url: `/reset-password/confirm?token=${token}` });
      await app.inject({ method: 'GET', url: `/api/dev/mailbox?x=1&token=${token}#token=${token}` });
      // Any log call that includes a link, in its object or its message, is cleaned too.
      const link = `https://payweave.example/reset-password/confirm?token=${token}`;
      app.log.info({ link, nested: { links: [link] } }, `sent ${link}`);
      app.log.warn(`card 4242 4242 4242 4242 and ${link}`);
      expect((await client(app, '10.88.0.3').request('POST', '/api/auth/password-reset/confirm', { token, password: 'Another-Strong-Pass-7' })).statusCode).toBe(204);

      const logs = logChunks.join('');
      expect(logs).toContain('incoming request');
      expect(logs).toContain('/reset-password/confirm?token=[redacted]');
      expect(logs).toContain('sent https://payweave.example/reset-password/confirm?token=[redacted]');
      expect(logs).not.toContain(token);
      expect(logs).not.toContain('4242 4242 4242 4242');
      expect(logs).toContain('[card number removed]');
    } finally {
      await app.close();
    }
  });

  describe('the outbox keeps no body longer than it must', () => {
    let t: TestApp;
    let smtp: SMTPServer;
    let smtpUrl: string;
    const received: string[] = [];

    beforeAll(async () => {
      smtp = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS', 'AUTH'],
        logger: false,
        onData(stream, _session, callback) {
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            received.push(Buffer.concat(chunks).toString('utf8'));
            callback();
          });
        },
      });
      await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
      smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
      t = await createTestApp({ database, now: () => clock });
    });
    afterAll(async () => {
      await t?.close().catch(() => {});
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    });

    const purge = async (app: TestApp['app']) => scheduledJobs.find((job) => job.name === 'purge-outbox-bodies')!.run(app);

    it('a delivered message keeps its envelope but not its body', async () => {
      const live = await createTestApp({ database, env: { SMTP_URL: smtpUrl }, now: () => clock });
      try {
        const email = `delivered-${Date.now()}@example.com`;
        expect((await registerVia(client(live.app, '10.88.1.1'), email)).statusCode).toBe(201);
        expect((await client(live.app, '10.88.1.2').request('POST', '/api/auth/password-reset', { email })).statusCode).toBe(202);
        const row = await waitFor(async () => {
          const [found] = await database.db.select().from(outbox).where(eq(outbox.toAddress, email));
          return found?.status === 'sent' ? found : undefined;
        });
        expect(received.some((raw) => raw.includes('reset-password/confirm'))).toBe(true);
        expect(row).toMatchObject({ status: 'sent', subject: 'Reset your PayWeave password', textBody: '', htmlBody: null });
        expect(row.sentAt).toBeInstanceOf(Date);
      } finally {
        await live.close();
      }
    });

    it('a stored message (demo mailbox) loses its body after 24 hours, and the mailbox no longer lists it', async () => {
      const email = `stored-${Date.now()}@example.com`;
      expect((await registerVia(client(t.app, '10.88.2.1'), email)).statusCode).toBe(201);
      expect((await client(t.app, '10.88.2.2').request('POST', '/api/auth/password-reset', { email })).statusCode).toBe(202);
      const mailbox = async () => ((await t.app.inject({ method: 'GET', url: '/api/dev/mailbox' })).json() as { messages: Array<{ to: string; text: string }> }).messages.filter((m) => m.to === email);

      // 23 hours on, the newcomer can still open the link (well, its token expired, but the mail is there).
      clock = new Date(clock.getTime() + 23 * HOUR_MS);
      await purge(t.app);
      expect((await mailbox())[0]?.text).toMatch(TOKEN_IN_LINK);

      clock = new Date(clock.getTime() + 2 * HOUR_MS);
      await purge(t.app);
      const [row] = await database.db.select().from(outbox).where(eq(outbox.toAddress, email));
      expect(row).toMatchObject({ status: 'stored', textBody: '', htmlBody: null, subject: 'Reset your PayWeave password' });
      expect(await mailbox()).toEqual([]);
      // Nothing in the whole outbox still holds a token that old.
      const all = await database.db.select({ text: outbox.textBody, createdAt: outbox.createdAt }).from(outbox);
      expect(all.filter((message) => message.createdAt.getTime() < clock.getTime() - 24 * HOUR_MS && message.text !== '')).toEqual([]);
    });

    it('a message that could not be delivered within 24 hours gives up and loses its body', async () => {
      const refusing = await createTestApp({ database, env: { SMTP_URL: 'smtp://127.0.0.1:9' }, now: () => clock });
      try {
        const email = `undelivered-${Date.now()}@example.com`;
        expect((await registerVia(client(refusing.app, '10.88.3.1'), email)).statusCode).toBe(201);
        await refusing.app.adapters.mailer.enqueue({ to: email, subject: 'Link', text: 'https://payweave.example/verify?token=abc' });
        clock = new Date(clock.getTime() + 25 * HOUR_MS);
        await purge(refusing.app);
        const [row] = await database.db.select().from(outbox).where(eq(outbox.toAddress, email));
        expect(row).toMatchObject({ status: 'failed', textBody: '', htmlBody: null });
      } finally {
        await refusing.close();
      }
    });
  });
});
