// The API's one request order (docs/architecture.md, "Request order"), walked over every
// operation of the served document: signed out, a session-only operation answers 401 whatever
// the body, query, headers or Origin; signed in, a cross-site request is 403, then a body that is
// not JSON 415, then an invalid body or an unknown query parameter 400. The error code of every
// answer is one of src/contracts/errors.ts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { ERROR_CODES } from '../../src/contracts/errors';
import { registerUser, type ApiUser } from '../helpers/api-client';
import { createTestApp, type TestApp } from '../helpers/test-app';

type Operation = { method: string; path: string; security?: Array<Record<string, string[]>>; requestBody?: unknown; operationId?: string; summary?: string; tags?: string[] };

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const FOREIGN_ORIGIN = 'https://evil.example';
const A_UUID = '00000000-0000-4000-8000-000000000000';

function operationsOf(document: { paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'>>> }): Operation[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ ...operation, method: method.toUpperCase(), path })),
  );
}

const concrete = (path: string) => path.replace(/\{[^}]+\}/g, A_UUID);
const sessionOnly = (operation: Operation) => (operation.security ?? []).length > 0 && !(operation.security ?? []).some((s) => Object.keys(s).length === 0);

describe('request order: 401 → 403 → 415 → 400', () => {
  let t: TestApp;
  let user: ApiUser;
  let operations: Operation[];

  beforeAll(async () => {
    t = await createTestApp();
    user = await registerUser(t.app);
    operations = operationsOf((await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json());
  });
  afterAll(async () => t?.close());

  it('every operation declares its security, an operationId, a summary and a tag', () => {
    expect(operations.length).toBeGreaterThan(40);
    for (const operation of operations) {
      const name = `${operation.method} ${operation.path}`;
      expect(operation.security, name).toBeDefined();
      expect(operation.operationId, name).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(operation.summary, name).toBeTruthy();
      expect(operation.tags?.length, name).toBeGreaterThan(0);
    }
    const ids = operations.map((o) => o.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    // The public ones are few and named; everything else needs a session.
    const anonymous = operations.filter((o) => !sessionOnly(o)).map((o) => `${o.method} ${o.path}`).sort();
    expect(anonymous).toEqual(
      [
        'GET /api/config',
        'GET /api/dev/mailbox',
        'GET /api/health',
        'GET /api/promo',
        'GET /api/session',
        'POST /api/auth/login',
        'POST /api/auth/login/two-factor',
        'POST /api/auth/login/two-factor/passkey',
        'POST /api/auth/login/two-factor/passkey/options',
        'POST /api/auth/logout',
        'POST /api/auth/passkey',
        'POST /api/auth/passkey/options',
        'POST /api/auth/password-reset',
        'POST /api/auth/password-reset/confirm',
        'POST /api/auth/register',
        'POST /api/auth/two-factor/unlock',
        'POST /api/support',
      ].sort(),
    );
  });

  it('signed out, every session-only operation answers 401 whatever the body, query, headers or Origin', async () => {
    let checked = 0;
    for (const operation of operations.filter(sessionOnly)) {
      const hostile = [
        { headers: {}, payload: undefined },
        { headers: { 'content-type': 'application/json' }, payload: '{}' },
        { headers: { 'content-type': 'application/json' }, payload: '{"unknown": 1, "amountCents": "lots"}' },
        { headers: { 'content-type': 'text/plain' }, payload: 'hello' },
        { headers: { 'content-type': 'application/json', origin: FOREIGN_ORIGIN }, payload: '{"x":' },
      ];
      for (const variant of hostile) {
        if (!BODY_METHODS.has(operation.method) && variant.payload !== undefined) continue;
        const response = await t.app.inject({ method: operation.method as 'GET', url: `${concrete(operation.path)}?colour=blue`, headers: variant.headers, payload: variant.payload });
        expect(response.statusCode, `${operation.method} ${operation.path} ${JSON.stringify(variant)}: ${response.body}`).toBe(401);
        expect(response.json().error.code).toBe('unauthorized');
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('signed in: cross-site 403, then a body that is not JSON 415, then an invalid body 400', async () => {
    for (const operation of operations.filter((o) => BODY_METHODS.has(o.method))) {
      const name = `${operation.method} ${operation.path}`;
      const url = concrete(operation.path);
      const cookie = { cookie: user.cookie };
      const crossSite = await t.app.inject({ method: operation.method as 'POST', url, headers: { ...cookie, origin: FOREIGN_ORIGIN, 'content-type': 'text/plain' }, payload: 'x' });
      expect(crossSite.statusCode, `${name} cross-site: ${crossSite.body}`).toBe(403);
      expect(crossSite.json().error.code).toBe('csrf_failed');

      const notJson = await t.app.inject({ method: operation.method as 'POST', url, headers: { ...cookie, 'content-type': 'text/plain' }, payload: '{"x":1}' });
      expect(notJson.statusCode, `${name} text/plain: ${notJson.body}`).toBe(415);
      expect(notJson.json().error.code).toBe('unsupported_media_type');

      if (operation.requestBody) {
        const invalid = await t.app.inject({ method: operation.method as 'POST', url, headers: { ...cookie, 'content-type': 'application/json' }, payload: '{"definitelyNotAField": true}' });
        expect(invalid.statusCode, `${name} invalid body: ${invalid.body}`).toBe(400);
        expect(invalid.json().error.code).toBe('validation_error');
      } else {
        // An operation that defines no body takes none (docs/api.md: bodies are strict).
        for (const [payload, message] of [
          ['{"tip": 1}', 'Unknown field: tip.'],
          ['{"tip": 1, "note": "x"}', 'Unknown fields: tip, note.'],
          ['[]', 'This request takes no body.'],
          ['null', 'This request takes no body.'],
          ['"x"', 'This request takes no body.'],
        ]) {
          const sent = await t.app.inject({ method: operation.method as 'POST', url, headers: { ...cookie, 'content-type': 'application/json' }, payload });
          expect(sent.statusCode, `${name} ${payload}: ${sent.body}`).toBe(400);
          expect(sent.json().error).toMatchObject({ code: 'validation_error', message });
        }
      }
    }
  });

  it('the error code is published as the closed list of src/contracts/errors.ts', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(document.components.schemas.Error.properties.error.properties.code.enum).toEqual([...ERROR_CODES]);
  });

  it('a known path with a method it does not take answers 405 with Allow; an unknown path 404', async () => {
    const wrong = await t.app.inject({ method: 'PATCH', url: '/api/cards', headers: { cookie: user.cookie } });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toBe('GET, HEAD');
    expect(wrong.json().error.code).toBe('method_not_allowed');
    const withId = await t.app.inject({ method: 'PUT', url: `/api/combines/${A_UUID}` });
    expect(withId.statusCode).toBe(405);
    expect(withId.headers.allow).toBe('GET, HEAD, PATCH, DELETE');
    const unknown = await t.app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('not_found');
  });

  it('a path parameter over the router\'s 200 characters answers 414 on every method, GET included, beside the web app', async () => {
    // The web app's catch-all GET is what took such a GET before (it answered 405 "GET is not allowed").
    const webRoot = mkdtempSync(path.join(tmpdir(), 'payweave-web-'));
    writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>PayWeave</title><div id="root"></div>');
    const withWeb = await createTestApp({ webRoot, database: t.database });
    onTestFinished(async () => {
      await withWeb.close();
      rmSync(webRoot, { recursive: true, force: true });
    });
    const long = 'a'.repeat(201);
    for (const [method, url] of [
      ['GET', `/api/combines/${long}`],
      ['PATCH', `/api/combines/${long}`],
      ['DELETE', `/api/combines/${long}`],
      ['GET', `/api/cards/${long}/transactions`],
      ['POST', `/api/cards/${long}/freeze`],
    ] as const) {
      const answer = await withWeb.app.inject({ method, url, headers: { cookie: user.cookie } });
      expect(answer.statusCode, `${method} ${url.slice(0, 20)}`).toBe(414);
      expect(answer.json().error).toEqual({ code: 'uri_too_long', message: 'The address is too long.' });
      expect(answer.headers.allow).toBeUndefined();
    }
    // The web app is still served, and an API path of ordinary length still routes.
    expect((await withWeb.app.inject({ method: 'GET', url: '/my-cards' })).headers['content-type']).toMatch(/^text\/html/);
    expect((await withWeb.app.inject({ method: 'GET', url: `/api/combines/${A_UUID}`, headers: { cookie: user.cookie } })).statusCode).toBe(404);
  });

  it('an unknown query parameter or body field answers 400 naming it, signed in', async () => {
    const filter = await user.request('GET', '/api/cards?colour=blue');
    expect(filter.statusCode).toBe(400);
    expect(filter.json().error).toMatchObject({ code: 'validation_error', message: 'Unknown query parameter: colour.' });
    const noQuery = await user.request('GET', '/api/me?verbose=1&x=2');
    expect(noQuery.statusCode).toBe(400);
    expect(noQuery.json().error.message).toBe('Unknown query parameters: verbose, x.');
    const field = await user.request('POST', '/api/combines', { baseInput: '100', bufferInput: '0', bufferMode: 'percent', tip: 5 });
    expect(field.statusCode).toBe(400);
    expect(field.json().error.message).toBe('Unknown field: tip.');
    // Nothing was created by the refused request.
    const list = await user.request('GET', '/api/combines');
    expect(list.json().combines).toEqual([]);
  });
});
