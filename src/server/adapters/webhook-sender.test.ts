import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REFUSED_ADDRESSES } from '../../../tests/helpers/refused-addresses';
import { checkWebhookUrl, deliverWebhook, generateWebhookSecret, RESPONSE_START_BYTES, signWebhook, type ResolveAll } from './webhook-sender';

// Every request here goes to a receiver on 127.0.0.1; refused addresses are only ever classified.
const OLD_SECRET = generateWebhookSecret();
const NEW_SECRET = generateWebhookSecret();
const demo = { live: false, allowLoopback: true };

type Received = { path: string; headers: IncomingHttpHeaders; verified: boolean };
let received: Received[] = [];
let server: Server;
let base: string;
let port: number;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      let verified = true;
      try {
        // The receiver still knows only the old secret, as one does mid-rotation.
        new Webhook(OLD_SECRET).verify(body, req.headers as Record<string, string>);
      } catch {
        verified = false;
      }
      received.push({ path: req.url ?? '', headers: req.headers, verified });
      const path = new URL(req.url ?? '/', 'http://receiver').pathname;
      if (path === '/hook') res.writeHead(verified ? 204 : 400).end();
      else if (path === '/redirect') res.writeHead(302, { location: '/hook' }).end();
      else if (path === '/gone') res.writeHead(410).end('no longer here');
      else if (path === '/broken') res.writeHead(500).end('database is down');
      else if (path === '/chatty') res.writeHead(200).end('x'.repeat(100_000));
      // '/silent' never answers.
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received = [];
});

function signed(body = '{"type":"card.created"}', secrets = [NEW_SECRET, OLD_SECRET]) {
  return { headers: signWebhook({ secrets, id: 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W', timestamp: new Date(), body }), body };
}

describe('secrets and signatures', () => {
  it('makes a whsec_ secret of 32 random bytes that the Standard Webhooks library accepts', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(secret).not.toBe(generateWebhookSecret());
    expect(() => new Webhook(secret)).not.toThrow();
  });

  it('signs the published test message as the specification’s libraries do', () => {
    const headers = signWebhook({
      secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
      id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      timestamp: new Date(1614265330_000),
      body: '{"test": 2432232314}',
    });
    expect(headers).toEqual({
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it('signs id.timestamp.body with HMAC-SHA256 under each secret, space-separated, the timestamp in seconds', () => {
    const timestamp = new Date('2026-12-01T09:00:00.750Z');
    const headers = signWebhook({ secrets: [NEW_SECRET, OLD_SECRET], id: 'msg_1', timestamp, body: '{"a":1}' });
    const hmac = (secret: string) =>
      createHmac('sha256', Buffer.from(secret.slice(6), 'base64')).update(`msg_1.${Math.floor(timestamp.getTime() / 1000)}.{"a":1}`).digest('base64');
    expect(headers['webhook-timestamp']).toBe('1796115600');
    expect(headers['webhook-signature']).toBe(`v1,${hmac(NEW_SECRET)} v1,${hmac(OLD_SECRET)}`);
  });
});

describe('delivering a webhook', () => {
  it('posts the body with signatures a receiver verifies, and reports the 2xx as delivered', async () => {
    const { headers, body } = signed();
    const result = await deliverWebhook({ url: `${base}/hook?tenant=7`, headers, body, ...demo });
    expect(result).toMatchObject({ ok: true, status: 204, responseStart: '' });
    expect(result.error).toBeUndefined();
    expect(received).toEqual([expect.objectContaining({ path: '/hook?tenant=7', verified: true })]);
    expect(received[0]?.headers['content-type']).toBe('application/json');
  });

  it('during a rotation, a receiver still on the old secret verifies; one signed only with the new does not', async () => {
    await deliverWebhook({ url: `${base}/hook`, ...signed(undefined, [NEW_SECRET, OLD_SECRET]), ...demo });
    const refused = await deliverWebhook({ url: `${base}/hook`, ...signed(undefined, [NEW_SECRET]), ...demo });
    expect(received.map((r) => r.verified)).toEqual([true, false]);
    expect(refused).toMatchObject({ ok: false, status: 400 });
  });

  it('counts a redirect as a failure and does not follow it', async () => {
    const result = await deliverWebhook({ url: `${base}/redirect`, ...signed(), ...demo });
    expect(result).toMatchObject({ ok: false, status: 302 });
    expect(result.error).toMatch(/redirects are not followed/);
    expect(received.map((r) => r.path)).toEqual(['/redirect']);
  });

  it('reports a 410 Gone and the start of its body', async () => {
    expect(await deliverWebhook({ url: `${base}/gone`, ...signed(), ...demo })).toMatchObject({ ok: false, status: 410, responseStart: 'no longer here' });
  });

  it('keeps the start of an error page for the log, and only its first kilobyte of a long answer', async () => {
    expect(await deliverWebhook({ url: `${base}/broken`, ...signed(), ...demo })).toMatchObject({ ok: false, status: 500, responseStart: 'database is down' });
    const chatty = await deliverWebhook({ url: `${base}/chatty`, ...signed(), ...demo });
    expect(chatty).toMatchObject({ ok: true, status: 200 });
    expect(chatty.responseStart).toBe('x'.repeat(RESPONSE_START_BYTES));
  });

  it('gives up on a receiver that does not answer in time', async () => {
    const result = await deliverWebhook({ url: `${base}/silent`, ...signed(), ...demo, timeoutMs: 300 });
    expect(result).toMatchObject({ ok: false, status: null, error: 'No answer within 0.3 s.' });
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
    expect(result.durationMs).toBeLessThan(5_000);
  });

  it('reports a refused connection without throwing', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await deliverWebhook({ url: `http://127.0.0.1:${closedPort}/hook`, ...signed(), ...demo });
    expect(result).toMatchObject({ ok: false, status: null, error: expect.stringMatching(/ECONNREFUSED/) });
  });

  it('refuses a loopback receiver unless loopback is allowed, and then sends nothing', async () => {
    const result = await deliverWebhook({ url: `${base}/hook`, ...signed(), live: false, allowLoopback: false });
    expect(result).toMatchObject({ ok: false, status: null, error: 'This address points to this server itself and cannot receive webhooks.' });
    expect(received).toEqual([]);
  });

  it('resolves the name once and connects to the address it checked, with the name as Host (DNS rebinding)', async () => {
    // A second answer would be another loopback address where nothing listens: a connection there fails.
    const answers = ['127.0.0.1', '127.0.0.2'];
    let lookups = 0;
    const resolve: ResolveAll = async () => [{ address: answers[Math.min(lookups++, 1)] as string, family: 4 }];
    const result = await deliverWebhook({ url: `http://hooks.example.test:${port}/hook`, ...signed(), ...demo, resolve });
    expect(result).toMatchObject({ ok: true, status: 204 });
    expect(lookups).toBe(1);
    expect(received[0]?.headers.host).toBe(`hooks.example.test:${port}`);
  });
});

describe('checking a webhook URL', () => {
  const strict = { live: false, allowLoopback: false };

  it('requires https in live mode, and allows http or https in the demo', async () => {
    expect(await checkWebhookUrl('http://hooks.example.com/in', { live: true, allowLoopback: false })).toEqual({ ok: false, error: 'Webhook URLs must use https.' });
    expect(await checkWebhookUrl('ftp://hooks.example.com/in', strict)).toEqual({ ok: false, error: 'Webhook URLs must use http or https.' });
    const publicAddress: ResolveAll = async () => [{ address: '93.184.215.14', family: 4 }];
    expect(await checkWebhookUrl('https://hooks.example.com/in', { live: true, allowLoopback: false, resolve: publicAddress })).toMatchObject({ ok: true, address: '93.184.215.14', family: 4, hostname: 'hooks.example.com' });
    expect(await checkWebhookUrl('http://hooks.example.com:8080/in', { ...strict, resolve: publicAddress })).toMatchObject({ ok: true, address: '93.184.215.14' });
  });

  it('refuses a URL that is not one, or that carries a user name or password', async () => {
    expect(await checkWebhookUrl('hooks.example.com/in', strict)).toEqual({ ok: false, error: 'This is not a valid URL.' });
    expect(await checkWebhookUrl('https://user:secret@hooks.example.com/in', strict)).toEqual({ ok: false, error: 'Webhook URLs cannot contain a user name or password.' });
  });

  it('refuses a name that resolves to loopback (localhost), and loopback in live mode even when allowed', async () => {
    expect(await checkWebhookUrl(`http://localhost:${port}/hook`, strict)).toEqual({ ok: false, error: 'This address points to this server itself and cannot receive webhooks.' });
    expect(await checkWebhookUrl(`http://localhost:${port}/hook`, demo)).toMatchObject({ ok: true, hostname: 'localhost' });
    expect(await checkWebhookUrl('https://127.0.0.1/hook', { live: true, allowLoopback: true })).toMatchObject({ ok: false });
  });

  it('refuses a name with any address that is not public, and a name that does not resolve', async () => {
    const mixed: ResolveAll = async () => [{ address: '93.184.215.14', family: 4 }, { address: '10.0.0.5', family: 4 }];
    expect(await checkWebhookUrl('https://hooks.example.com/', { ...strict, resolve: mixed })).toEqual({ ok: false, error: 'This address points to a private network and cannot receive webhooks.' });
    const missing: ResolveAll = async () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }));
    expect(await checkWebhookUrl('https://nowhere.example.com/', { ...strict, resolve: missing })).toEqual({ ok: false, error: 'This host name could not be found.' });
  });

  it.each(REFUSED_ADDRESSES)('refuses a URL at %s (%s), whether or not loopback is allowed', async (address, reason) => {
    const url = address.includes(':') ? `http://[${address}]/hook` : `http://${address}/hook`;
    const result = await checkWebhookUrl(url, strict);
    expect(result.ok).toBe(false);
    if (!address.includes('%')) {
      expect(result).toMatchObject({ error: expect.stringMatching(/private network|this server itself|metadata service|not on the public internet/) });
      if (reason !== 'private network address' && reason !== 'loopback address' && reason !== 'cloud metadata address') {
        expect(result).toMatchObject({ error: expect.stringContaining(`(${reason})`) });
      }
    }
    if (reason !== 'loopback address') expect((await checkWebhookUrl(url, demo)).ok).toBe(false);
  });
});
