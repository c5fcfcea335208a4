import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../../../tests/helpers/api-client';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';

describe('GET /api/session (the web app start-up probe)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 200 signed out, so a visitor’s console shows no failed request', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/session' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ signedIn: false, profile: null });
  });

  it('answers with the signed-in user’s own profile, and signed out again after logout', async () => {
    const user = await registerUser(t.app);
    const res = await user.request('GET', '/api/session');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ signedIn: true, profile: { email: user.email, subscription: 'free' } });
    expect((await user.request('POST', '/api/auth/logout')).statusCode).toBe(204);
    expect((await user.request('GET', '/api/session')).json()).toEqual({ signedIn: false, profile: null });
  });

  it('ignores a forged session cookie', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/session', headers: { cookie: 'pw_session=forged-token' } });
    expect(res.json()).toEqual({ signedIn: false, profile: null });
  });
});
