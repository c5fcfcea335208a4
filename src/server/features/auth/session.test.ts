import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import { testConfig } from '../../../../tests/helpers/test-app';
import { createTestDatabase, type TestDatabase } from '../../../../tests/helpers/test-db';
import { client, registerVia, STRONG_PASSWORD } from '../../../../tests/helpers/auth-client';
import { requireRecentPassword, requireUser } from '../../plugins/session';

// requireUser / requireRecentPassword as another feature uses them: a route of its own.
describe('session guards for other features', () => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let clock = new Date('2026-03-02T12:00:00.000Z');
  const FIVE_MINUTES_MS = 5 * 60 * 1000;

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await buildApp({ config: testConfig(), database, serveWeb: false, now: () => clock });
    await app.register(
      async (api) => {
        api.get('/test/whoami', async (request) => requireUser(request));
        api.get('/test/reveal', async (request) => requireRecentPassword(request, FIVE_MINUTES_MS));
      },
      { prefix: '/api' },
    );
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('requireUser answers 401 signed out and gives the session user signed in', async () => {
    const anonymous = await app.inject({ method: 'GET', url: '/api/test/whoami' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ error: { code: 'unauthorized', message: 'Please sign in to continue.' } });
    const c = client(app, '10.2.0.1');
    const profile = (await registerVia(c, 'guard@example.com')).json() as { id: string };
    const me = await c.request('GET', '/api/test/whoami');
    expect(me.json()).toMatchObject({ userId: profile.id, sessionId: expect.any(String) });
  });

  it('requireRecentPassword accepts a fresh sign-in, then asks again after the window until re-authentication', async () => {
    const c = client(app, '10.2.0.2');
    await registerVia(c, 'reveal@example.com');
    expect((await c.request('GET', '/api/test/reveal')).statusCode).toBe(200);
    clock = new Date(clock.getTime() + FIVE_MINUTES_MS + 1000);
    const stale = await c.request('GET', '/api/test/reveal');
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toEqual({ error: { code: 'reauthentication_required', message: 'Please enter your password again to continue.' } });
    expect((await c.request('POST', '/api/auth/reauthenticate', { password: STRONG_PASSWORD })).statusCode).toBe(204);
    expect((await c.request('GET', '/api/test/reveal')).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/test/reveal' })).statusCode).toBe(401);
  });
});
