// docs/rules.md#demo-mailbox: the demo mailbox holds every stored e-mail, reset links
// included, so it answers only requests made on the machine itself: a loopback peer and no
// forwarding header, whatever TRUST_PROXY says. Everyone else gets the 404 of a path that does
// not exist. Live mode without SMTP_URL refuses to start rather than keep mail in the outbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/server/config';
import { client } from '../../helpers/auth-client';
import { registerUser } from '../../helpers/api-client';
import { createTestApp, TEST_CARD_DATA_KEY, type TestApp } from '../../helpers/test-app';

type Mailbox = { messages: Array<{ to: string; text: string }> };

describe('attacker: the demo mailbox answers only the machine itself', () => {
  let t: TestApp;
  let trusting: TestApp;
  let victim: string;

  beforeAll(async () => {
    t = await createTestApp();
    // Behind a proxy that is believed: request.ip would say whatever X-Forwarded-For says.
    trusting = await createTestApp({ env: { TRUST_PROXY: 'true' }, database: t.database });
    victim = (await registerUser(t.app)).email;
    // The stranger asks for a reset of the victim's account: the link is now in the outbox.
    const reset = await client(t.app, '203.0.113.9').request('POST', '/api/auth/password-reset', { email: victim });
    expect(reset.statusCode).toBe(202);
  });

  afterAll(async () => {
    await trusting?.close();
    await t?.close();
  });

  const mailbox = (app: TestApp, remoteAddress: string, headers: Record<string, string> = {}) =>
    app.app.inject({ method: 'GET', url: '/api/dev/mailbox', remoteAddress, headers });

  it('a stranger gets the 404 of a path that does not exist, and no reset link', async () => {
    const unknown = await t.app.inject({ method: 'GET', url: '/api/dev/nothing-here', remoteAddress: '203.0.113.9' });
    for (const address of ['203.0.113.9', '10.0.0.7', '192.168.1.20', '2001:db8::1', '::ffff:10.0.0.7', '128.0.0.1']) {
      const res = await mailbox(t, address);
      expect(res.statusCode, address).toBe(404);
      expect((res.json() as { error: { code: string } }).error.code).toBe(unknown.json<{ error: { code: string } }>().error.code);
      expect(res.body).not.toMatch(/token=|reset-password/);
      expect(res.body).not.toContain(victim);
    }
  });

  it('a request relayed by a proxy on this machine is refused, whatever the forwarding header', async () => {
    const relayed: Array<Record<string, string>> = [
      { 'x-forwarded-for': '203.0.113.9' },
      { 'x-forwarded-for': '127.0.0.1' },
      { forwarded: 'for=203.0.113.9' },
      { 'x-real-ip': '203.0.113.9' },
      { 'x-forwarded-host': 'payweave.example' },
      { 'true-client-ip': '203.0.113.9' },
      { via: '1.1 proxy' },
    ];
    for (const headers of relayed) {
      const res = await mailbox(t, '127.0.0.1', headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(404);
      expect(res.body).not.toContain(victim);
    }
  });

  it('with TRUST_PROXY on, a forged X-Forwarded-For: 127.0.0.1 from a stranger is still refused (the socket decides)', async () => {
    const res = await mailbox(trusting, '203.0.113.9', { 'x-forwarded-for': '127.0.0.1' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain(victim);
  });

  it('DNS rebinding (decision 175): a loopback request to a name that is not this machine is refused, whatever the port', async () => {
    // An attacker's page at attacker.example, whose DNS answer was switched to 127.0.0.1: the
    // browser connects from this machine, sends no forwarding header, and reads the answer as the
    // page's own. The Host header still names the attacker's site.
    for (const host of ['attacker.example', 'attacker.example:3000', 'ATTACKER.example:80', '127.0.0.1.nip.io:3000', 'localhost.attacker.example', '0x7f000001', 'localhost:3000@attacker.example']) {
      for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
        const res = await mailbox(t, address, { host });
        expect(res.statusCode, `${host} from ${address}`).toBe(404);
        expect(res.body).not.toContain(victim);
        expect(res.body).not.toMatch(/token=/);
      }
    }
  });

  it('the names of this machine still read it: localhost (and its subdomains), loopback addresses, and the host of APP_URL', async () => {
    for (const host of ['localhost', 'localhost:3000', 'LOCALHOST:5173', 'localhost.', 'app.localhost:3000', '127.0.0.1:3000', '127.1.2.3', '[::1]:3000', '[::1]']) {
      const res = await mailbox(t, '127.0.0.1', { host });
      expect(res.statusCode, host).toBe(200);
      expect((res.json() as Mailbox).messages.some((message) => message.to === victim), host).toBe(true);
    }
    // A newcomer who mapped their own name to this machine and set APP_URL to it.
    const named = await createTestApp({ env: { APP_URL: 'http://payweave.test:3000' }, database: t.database });
    try {
      expect((await mailbox(named, '127.0.0.1', { host: 'payweave.test:3000' })).statusCode).toBe(200);
      expect((await mailbox(named, '127.0.0.1', { host: 'other.test:3000' })).statusCode).toBe(404);
    } finally {
      await named.close();
    }
  });

  it('the newcomer on localhost still reads the reset link (127.0.0.0/8, ::1 and IPv4-mapped loopback)', async () => {
    for (const address of ['127.0.0.1', '127.5.6.7', '::1', '::ffff:127.0.0.1']) {
      const res = await mailbox(t, address);
      expect(res.statusCode, address).toBe(200);
      const mine = (res.json() as Mailbox).messages.find((message) => message.to === victim);
      expect(mine?.text, address).toMatch(/reset-password\/confirm\?token=[A-Za-z0-9_-]{43}/);
    }
  });

  it('over a real socket: a browser on this machine (no proxy) reads the mailbox', async () => {
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const res = await fetch(`${address}/api/dev/mailbox`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as Mailbox).messages.some((message) => message.to === victim)).toBe(true);
      const relayed = await fetch(`${address}/api/dev/mailbox`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
      expect(relayed.status).toBe(404);
    } finally {
      await t.app.server.close();
    }
  });

  it('live mode without SMTP_URL refuses to start, naming SMTP_URL', () => {
    const live = { DEMO_MODE: 'false', CARD_DATA_KEY: TEST_CARD_DATA_KEY, DATA_DIR: '/tmp/payweave-test-unused' };
    expect(() => loadConfig(live)).toThrow(ConfigError);
    expect(() => loadConfig(live)).toThrow(/SMTP_URL: required when DEMO_MODE=false/);
    expect(loadConfig({ ...live, SMTP_URL: 'smtp://mail.example:587' }).smtpUrl).toBe('smtp://mail.example:587');
  });
});
