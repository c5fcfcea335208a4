import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';

describe('system endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('health reports the database as up', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', db: 'up', writable: true });
  });

  it('promo reads the real counter row, not a made-up number', async () => {
    const before = await t.app.inject({ method: 'GET', url: '/api/promo' });
    expect(before.json()).toEqual({ limitCount: 100, claimedCount: 0, remainingCount: 100 });
    await t.database.db.execute(sql`update system_promos set first_100_promo_claimed = 37 where id = 'promo_counters_main'`);
    const after = await t.app.inject({ method: 'GET', url: '/api/promo' });
    expect(after.json()).toEqual({ limitCount: 100, claimedCount: 37, remainingCount: 63 });
  });

  it('the database refuses a 101st promo claim', async () => {
    await expect(
      t.database.db.execute(sql`update system_promos set first_100_promo_claimed = 101 where id = 'promo_counters_main'`),
    ).rejects.toThrow();
  });

  it('openapi documents the endpoints', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/health', '/api/promo', '/api/config']));
  });

  it('unknown API paths answer 404 in the error shape', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  it('API answers carry no-store and the security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(String(res.headers['content-security-policy'])).toContain("object-src 'none'");
    expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(String(res.headers['content-security-policy'])).toContain("base-uri 'none'");
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('a cross-site state-changing request is refused', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: { code: 'csrf_failed' } });
    // A path that takes no POST says so before anything else (docs/architecture.md, request order).
    const wrongMethod = await t.app.inject({ method: 'POST', url: '/api/health', headers: { origin: 'https://evil.example' } });
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.headers.allow).toBe('GET, HEAD');
  });
});
