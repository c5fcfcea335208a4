// The security headers after the switch to helmet (decision 076) are the ones PayWeave sent
// before: the same CSP directives, the same other headers, HSTS only over https, and none of
// helmet's other defaults.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app';

const CSP = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'frame-ancestors': ["'none'"],
  'form-action': ["'self'"],
};

const SECURITY_HEADERS = ['content-security-policy', 'cross-origin-opener-policy', 'permissions-policy', 'referrer-policy', 'x-content-type-options', 'x-frame-options'];

describe('security headers through helmet', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: 'true' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the same headers as before on an answer, a 404 and a router error, and nothing else from helmet', async () => {
    for (const url of ['/api/health', '/api/no-such-endpoint', '/api/cards/%E0%A4%A']) {
      const res = await t.app.inject({ method: 'GET', url });
      const csp = String(res.headers['content-security-policy']);
      const directives = Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
      expect(directives, url).toEqual(CSP);
      expect(res.headers).toMatchObject({
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'cross-origin-opener-policy': 'same-origin',
        'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
        'cache-control': 'no-store',
      });
      const present = Object.keys(res.headers).filter((name) => /^(content-security|cross-origin|origin-agent|permissions|referrer|strict-transport|x-(content-type|frame|dns|download|permitted|xss|powered))/.test(name));
      expect(present.sort(), url).toEqual(SECURITY_HEADERS);
    }
  });

  it('HSTS only when served over https', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const secure = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(secure.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });
});
