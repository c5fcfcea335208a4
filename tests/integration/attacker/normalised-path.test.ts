// docs/rules.md#sessions: every security decision (session lookup, CSRF, Cache-Control:
// no-store, request order) is taken on the router's normalised path. An address written another
// way (`/%61pi/...`, `//api/...`, `/api/../api/...`) either reaches the API with every check, or
// reaches no API handler at all. Sent over a real socket, byte for byte, because inject() would
// tidy some of these addresses up before the server sees them.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, type ApiUser } from '../../helpers/api-client';
import { createTestApp, type TestApp } from '../../helpers/test-app';

type RawResponse = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

describe('attacker: security decisions on the normalised path', () => {
  let t: TestApp;
  let user: ApiUser;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp();
    user = await registerUser(t.app);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as { port: number }).port;
  });

  afterAll(async () => {
    await t?.close();
  });

  function raw(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      });
      req.on('error', reject);
      if (body !== undefined) req.write(body);
      req.end();
    });
  }

  const signedIn = () => ({ cookie: user.cookie });

  it('`/%61pi/me` is GET /api/me: the session is looked up and the answer is never cached', async () => {
    const res = await raw('GET', '/%61pi/me', signedIn());
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ email: user.email });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('`/%61pi/session` sees the session and is not cached', async () => {
    const res = await raw('GET', '/%61pi/session', signedIn());
    expect(res.status).toBe(200);
    expect(res.body).toContain(user.email);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('a public endpoint reached as `/%61pi/...` is not cached either', async () => {
    const res = await raw('GET', '/%61pi/config');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('a cross-site state change through `/%61pi/...` is refused by the CSRF check and changes nothing', async () => {
    const res = await raw('POST', '/%61pi/auth/logout', { ...signedIn(), origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'csrf_failed' } });
    expect(res.headers['cache-control']).toBe('no-store');
    expect((await user.request('GET', '/api/me')).statusCode).toBe(200);
  });

  it('`//api/...`, `/api/../api/...` and the like never reach an API handler without every check', async () => {
    const variants = ['//api/me', '/api/../api/me', '/api/./me', '/api//me', '/%2Fapi/me', '/%2fapi%2fme', '/.%2e/api/me', '/api/%2e%2e/api/me', '/%61pi/%2e/me'];
    for (const path of variants) {
      const res = await raw('GET', path, signedIn());
      // Whatever the answer, it is not cached; and if it is the user's profile, the session was
      // looked up the normal way (a 200 with the profile), never a signed-out answer from an API handler.
      expect(res.headers['cache-control'], path).toBe('no-store');
      if (res.status === 200) expect(JSON.parse(res.body), path).toMatchObject({ email: user.email });
      else expect(res.status, path).toBe(404);
      const anonymous = await raw('GET', path);
      expect([401, 404], path).toContain(anonymous.status);
    }
  });
});
