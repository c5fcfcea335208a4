import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { client, registerVia } from '../../../../tests/helpers/auth-client';
import { outbox } from '../../db/schema';
import { MAX_DELIVERY_ATTEMPTS } from '../../adapters/mailer';

type Received = { from: string; to: string[]; raw: string };

/** A real SMTP server on a free local port, keeping every message it accepts. */
async function startSmtpServer(options: { refuse?: boolean } = {}) {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (options.refuse) {
          callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
          return;
        }
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { received, url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function waitFor<T>(read: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  return waitForAsync(async () => read(), timeoutMs);
}

async function waitForAsync<T>(read: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('e-mail delivery through SMTP (SMTP_URL set)', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({ env: { SMTP_URL: smtp.url, APP_URL: 'https://payweave.test' } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('the reset e-mail reaches a real SMTP server with a working link, and is marked sent', async () => {
    const email = 'smtp-user@example.com';
    await registerVia(client(t.app, '10.9.0.1'), email);
    const res = await client(t.app, '10.9.0.2').request('POST', '/api/auth/password-reset', { email });
    expect(res.statusCode).toBe(202);

    const message = await waitFor(() => smtp.received.find((m) => m.to.includes(email)));
    expect(message.from).toBe('no-reply@payweave.example');
    expect(message.raw).toMatch(/Subject: Reset your PayWeave password/);
    // Quoted-printable may wrap lines and writes '=' as '=3D': decode those before reading the link.
    const body = message.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(body).toMatch(/https:\/\/payweave\.test\/reset-password\/confirm\?token=[A-Za-z0-9_-]{43}/);

    // The row is marked once the server has accepted the message.
    const row = await waitForAsync(async () => {
      const [current] = await t.database.db.select().from(outbox).where(eq(outbox.toAddress, email));
      return current?.status === 'sent' ? current : undefined;
    });
    expect(row).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
    expect(row?.sentAt).toBeInstanceOf(Date);

    // Delivered mail is not shown in the demo mailbox.
    const mailbox = await client(t.app, '127.0.0.1').request('GET', '/api/dev/mailbox');
    expect((mailbox.json() as { messages: Array<{ to: string }> }).messages.some((m) => m.to === email)).toBe(false);
  });

  it('a refused message stays pending with the error, is retried later, and gives up after the last attempt', async () => {
    const refusing = await startSmtpServer({ refuse: true });
    const app = await createTestApp({ env: { SMTP_URL: refusing.url }, database: t.database });
    try {
      const { mailer } = app.app.adapters;
      const { id } = await mailer.enqueue({ to: 'bounce@example.com', subject: 'Hello', text: 'Hi' });
      // The mailer has its own clock (wall time); drive retries by moving next_attempt_at back.
      for (let attempt = 1; attempt <= MAX_DELIVERY_ATTEMPTS; attempt += 1) {
        expect(await mailer.flush()).toBe(0);
        const [row] = await t.database.db.select().from(outbox).where(eq(outbox.id, id));
        expect(row?.attempts).toBe(attempt);
        expect(row?.lastError).toMatch(/Mailbox unavailable/);
        expect(row?.status).toBe(attempt < MAX_DELIVERY_ATTEMPTS ? 'pending' : 'failed');
        // Not retried before its back-off has passed.
        expect(await mailer.flush()).toBe(0);
        const [same] = await t.database.db.select().from(outbox).where(eq(outbox.id, id));
        expect(same?.attempts).toBe(attempt);
        await t.database.db.update(outbox).set({ nextAttemptAt: new Date(Date.now() - 1000) }).where(eq(outbox.id, id));
      }
      expect(await mailer.flush()).toBe(0);
      const [final] = await t.database.db.select().from(outbox).where(eq(outbox.id, id));
      expect(final?.attempts).toBe(MAX_DELIVERY_ATTEMPTS);
    } finally {
      await app.close();
      await refusing.close();
    }
  });
  // e-mail delivery is a step that breaks on demand like the others.
  it.each(['fail', 'timeout', 'lose-answer'] as const)('delivery %s: the message stays queued, is retried, and reaches the mailbox once', async (mode) => {
    const app = await createTestApp({ env: { SMTP_URL: smtp.url, DEMO_FAULTS: `mailer.send:${mode}@1`, DEMO_FAULT_TIMEOUT_MS: '20' }, database: t.database });
    try {
      const { mailer } = app.app.adapters;
      const to = `fault-${mode}@example.com`;
      const { id } = await mailer.enqueue({ to, subject: 'Hello', text: 'Hi' });
      expect(await mailer.flush()).toBe(0);
      const [first] = await t.database.db.select().from(outbox).where(eq(outbox.id, id));
      expect(first).toMatchObject({ status: 'pending', attempts: 1 });
      expect(first?.lastError).toMatch(/mailer\.send/);
      await t.database.db.update(outbox).set({ nextAttemptAt: new Date(Date.now() - 1000) }).where(eq(outbox.id, id));
      expect(await mailer.flush()).toBe(1);
      const [sent] = await t.database.db.select().from(outbox).where(eq(outbox.id, id));
      expect(sent).toMatchObject({ status: 'sent', attempts: 2 });
      // Once in the mailbox, whatever the fault: a lost answer's retry is the same Message-ID, not a new message.
      const delivered = smtp.received.filter((m) => m.to.includes(to));
      expect(delivered).toHaveLength(1);
      expect(delivered[0]?.raw).toContain(`Message-ID: <${id}@payweave.example>`);
      expect(app.calls.calls.filter((c) => c.reference === `mail:${id}`).map((c) => c.outcome)).toEqual(
        mode === 'lose-answer' ? ['answer-lost', 'duplicate'] : [mode === 'fail' ? 'failed' : 'timed-out', 'done'],
      );
    } finally {
      await app.close();
    }
  });
});
