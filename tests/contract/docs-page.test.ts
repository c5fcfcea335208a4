// The reference page: /api/docs renders the served document for people with
// Swagger UI's files from the package. Everything the page loads comes from our origin, under the
// app's own strict CSP (no inline script allowed), and nothing in it calls another host.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';

describe('the API reference page at /api/docs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('is an HTML page whose every script, style and icon is a file of our origin, under the strict CSP', async () => {
    for (const url of ['/api/docs', '/api/docs/']) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      const csp = String(page.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self';");
      expect(csp).not.toMatch(/script-src[^;]*(unsafe-inline|unsafe-eval|https?:)/);
      expect(csp).toContain("connect-src 'self'");
      expect(page.body).toContain('<title>PayWeave API reference</title>');
      // No inline script at all: every <script> has a src.
      expect(page.body.match(/<script(?![^>]*\ssrc=)[^>]*>/g)).toBeNull();
      const assets = [...page.body.matchAll(/\s(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
      expect(assets.length).toBeGreaterThanOrEqual(5);
      for (const asset of assets) {
        expect(asset, 'a relative address on our origin').not.toMatch(/^(?:[a-z]+:)?\/\//i);
        const absolute = new URL(asset, `http://localhost${url}`).pathname;
        expect(absolute).toMatch(/^\/api\/docs\/static\//);
        const file = await t.app.inject({ method: 'GET', url: absolute });
        expect(file.statusCode, absolute).toBe(200);
        expect(file.headers['content-type'], absolute).toMatch(/^(application\/javascript|text\/css|image\/png)/);
      }
    }
  });

  it('points Swagger UI at our own document and at no validator or other host', async () => {
    const initializer = await t.app.inject({ method: 'GET', url: '/api/docs/static/swagger-initializer.js' });
    expect(initializer.statusCode).toBe(200);
    expect(initializer.body).toContain("url: resolveUrl('./json')");
    expect(initializer.body).toContain('validatorUrl: null');
    // No address of another host in the code (its comments may cite one).
    const code = initializer.body.replace(/^\s*\/\/.*$/gm, '');
    expect(code).not.toMatch(/https?:\/\//);
    const served = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    const contract = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(served.json()).toEqual(contract.json());
    // The page and its files are not operations of the API.
    expect(Object.keys(contract.json().paths).filter((path) => path.startsWith('/api/docs'))).toEqual([]);
  });
});
