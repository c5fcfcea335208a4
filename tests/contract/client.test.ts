// A real client from the document: the served /api/openapi.json is turned
// into TypeScript types with openapi-typescript, a small driver program written against those
// types with openapi-fetch is type-checked by tsc (a document that cannot carry the flow fails to
// compile), then run against a real listening server: register, start a draft, add two sources,
// quote, complete, list the card, add a payout account and cash out part of the card.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';

const execFileAsync = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

// The driver: only the generated `paths` type and openapi-fetch, as an outside client would.
// Every call is typed from the document: a wrong path, a missing required field or header, or
// a response field the document does not promise is a compile error.
const DRIVER = String.raw`
import { randomUUID } from 'node:crypto';
import createClient from 'openapi-fetch';
import type { paths } from './schema';

const baseUrl = process.env.BASE_URL!;
const client = createClient<paths>({ baseUrl });
let cookie = '';
client.use({
  onRequest({ request }) {
    if (cookie) request.headers.set('cookie', cookie);
    return request;
  },
  onResponse({ response }) {
    const session = response.headers.getSetCookie().find((line) => line.startsWith('pw_session='));
    if (session) cookie = session.split(';')[0]!;
    return response;
  },
});

function must<T>(step: string, result: { data?: T; error?: { error: { code: string; message: string } }; response: Response }): T {
  if (result.data === undefined) throw new Error(step + ': ' + result.response.status + ' ' + JSON.stringify(result.error));
  return result.data;
}

const steps: string[] = [];
const password = 'Sturdy-Pass-2026';
const email = 'client-' + randomUUID() + '@example.com';
const registered = must('register', await client.POST('/api/auth/register', { body: { email, password, confirmPassword: password, acceptTerms: true } }));
steps.push('registered ' + registered.email);

const draft = must('start a draft', await client.POST('/api/combines', { body: { baseInput: '50', bufferInput: '0', bufferMode: 'percent' } }));
const half = Math.round(draft.funding.suggestedChargeCents.card / 2);
const first = must('first source', await client.POST('/api/combines/{id}/sources', {
  params: { path: { id: draft.id } },
  body: { type: 'credit', provider: 'visa', chargeCents: half, cardNumber: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvv: '123' },
}));
const second = must('second source', await client.POST('/api/combines/{id}/sources', {
  params: { path: { id: draft.id } },
  body: { type: 'debit', provider: 'mastercard', chargeCents: first.funding.suggestedChargeCents.card, cardNumber: '5555555555554444', expMonth: 11, expYear: new Date().getUTCFullYear() + 3, cvv: '321' },
}));
steps.push('sources ' + second.sources.length + ', remaining ' + second.funding.remainingToFundCents);

const choices = { useBoost: false, creationFeeSourceIdx: -1, cardType: 'general' as const };
const quote = must('quote', await client.POST('/api/combines/{id}/quote', { params: { path: { id: draft.id } }, body: choices }));
const completed = must('complete', await client.POST('/api/combines/{id}/complete', {
  params: { path: { id: draft.id }, header: { 'idempotency-key': randomUUID() } },
  body: { ...choices, expected: { cardAmountCents: quote.cardAmountCents, totalChargedCents: quote.totalChargedCents, productFeeCents: quote.productFeeCents } },
}));
steps.push('card ' + completed.card.maskedNumber);

const list = must('list cards', await client.GET('/api/cards', { params: { query: { status: 'active' } } }));
const card = list.cards.find((candidate) => candidate.id === completed.card.id);
if (!card) throw new Error('the new card is not in the list');

must('payout account', await client.POST('/api/payout-methods', { body: { method: 'ach', detail: '000123456789', routingNumber: '021000021' } }));
const part = Math.floor(card.remainingAmountCents / 2);
const cashout = must('cash out', await client.POST('/api/cashouts', {
  params: { header: { 'idempotency-key': randomUUID() } },
  body: { cardId: card.id, amountCents: part, payoutMethod: 'ach' },
}));

// A refusal is typed too: the error body and its code.
const refused = await client.POST('/api/cashouts', { params: { header: { 'idempotency-key': randomUUID() } }, body: { cardId: card.id, amountCents: 5_000_000, payoutMethod: 'ach' } });
const refusedCode: string | undefined = refused.error?.error.code;

console.log(JSON.stringify({
  steps,
  cardAmountCents: quote.cardAmountCents,
  listed: { id: card.id, status: card.status, remainingAmountCents: card.remainingAmountCents },
  cashout: { amountCents: cashout.cashout.amountCents, status: cashout.cashout.status, remainingAmountCents: cashout.card.remainingAmountCents },
  refused: { status: refused.response.status, code: refusedCode },
}));
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'Bundler',
    lib: ['ES2022', 'DOM'],
    types: ['node'],
    strict: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    skipLibCheck: true,
  },
  include: ['*.ts'],
};

describe('a generated client drives a first card', () => {
  let t: TestApp;
  let baseUrl: string;
  let dir: string;

  beforeAll(async () => {
    t = await createTestApp();
    baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
    // A scratch directory that sees the project's packages (openapi-fetch, typescript, @types/node).
    dir = await mkdtemp(path.join(os.tmpdir(), 'payweave-client-'));
    await symlink(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  });
  afterAll(async () => {
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('generates types from the served document, type-checks the driver and runs the whole flow', async () => {
    const document = (await (await fetch(`${baseUrl}/api/openapi.json`)).json()) as Parameters<typeof openapiTS>[0];
    const types = astToString(await openapiTS(document));
    expect(types).toContain('"/api/combines/{id}/complete"');
    await writeFile(path.join(dir, 'schema.ts'), types);
    await writeFile(path.join(dir, 'driver.ts'), DRIVER);
    await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
    await writeFile(path.join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));

    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const checked = await execFileAsync(process.execPath, [tsc, '-p', dir], { cwd: dir }).catch((error: { stdout?: string; stderr?: string }) => error);
    expect('stdout' in checked ? `${checked.stdout ?? ''}${checked.stderr ?? ''}` : '').toBe('');

    const tsx = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
    const { stdout } = await execFileAsync(process.execPath, [tsx, path.join(dir, 'driver.ts')], { cwd: dir, env: { ...process.env, BASE_URL: baseUrl } });
    const result = JSON.parse(stdout.trim().split('\n').pop()!) as {
      steps: string[];
      cardAmountCents: number;
      listed: { status: string; remainingAmountCents: number };
      cashout: { amountCents: number; status: string; remainingAmountCents: number };
      refused: { status: number; code?: string };
    };
    expect(result.steps[1]).toBe('sources 2, remaining 0');
    expect(result.listed).toMatchObject({ status: 'active', remainingAmountCents: result.cardAmountCents });
    expect(result.cashout.amountCents).toBe(Math.floor(result.cardAmountCents / 2));
    expect(result.cashout.status).toBe('success');
    expect(result.cashout.remainingAmountCents).toBe(result.cardAmountCents - result.cashout.amountCents);
    expect(result.refused.status).toBeGreaterThanOrEqual(400);
    expect(result.refused.status).toBeLessThan(500);
    expect(result.refused.code).toBeTruthy();
  }, 180_000); // tsc and a child process: ~15 s alone, more on a busy machine
});
