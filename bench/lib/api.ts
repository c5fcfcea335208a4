// A small JSON client over fetch for preparing the benchmark's data through the real API
// (accounts, plans, drafts, cards): the measured runs then only replay prepared requests.
import { randomUUID } from 'node:crypto';
// Demo-mode test numbers (the processor simulator accepts them; nothing real is charged), the
// same ones the API tests use.
import { TEST_MASTERCARD as MASTERCARD, TEST_VISA as VISA } from '../../tests/helpers/api-client';

export const BENCH_PASSWORD = 'Bench-Pass-2026';
const expYear = new Date().getUTCFullYear() + 2;

export type Answer = { status: number; body: unknown; text: string; headers: Headers };
/** `ip`: the address it comes from, sent as X-Forwarded-For to a server started with TRUST_PROXY. */
export type User = { email: string; cookie: string; ip?: string };

/** The headers every request of `user` carries: its session, and its address when it has one. */
export function userHeaders(user: User): Record<string, string> {
  return { cookie: user.cookie, ...(user.ip ? { 'x-forwarded-for': user.ip } : {}) };
}
export type Expected = { cardAmountCents: number; totalChargedCents: number; productFeeCents: number };
export type Draft = { user: User; combineId: string; expected: Expected };

export const COMPLETE_CHOICES = { useBoost: false, creationFeeSourceIdx: -1, cardType: 'general' } as const;

export async function call(baseUrl: string, method: string, url: string, options: { body?: unknown; cookie?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers: {
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...options.headers,
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  return { status: response.status, body, text, headers: response.headers };
}

function expectStatus(answer: Answer, status: number, what: string): void {
  if (answer.status !== status) throw new Error(`${what}: expected ${status}, got ${answer.status}: ${answer.text.slice(0, 500)}`);
}

export async function register(baseUrl: string, email: string, ip?: string): Promise<User> {
  const answer = await call(baseUrl, 'POST', '/api/auth/register', {
    body: { email, password: BENCH_PASSWORD, confirmPassword: BENCH_PASSWORD, acceptTerms: true },
    headers: ip ? { 'x-forwarded-for': ip } : {},
  });
  expectStatus(answer, 201, `register ${email}`);
  const cookie = answer.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] ?? '')
    .find((c) => c.startsWith('pw_session=') && c.length > 'pw_session='.length);
  if (!cookie) throw new Error(`register ${email}: no session cookie`);
  return { email, cookie, ...(ip ? { ip } : {}) };
}

/** Premium+ has no monthly combine limit (the Free plan allows 3 a month). */
export async function upgradeToPremiumPlus(baseUrl: string, user: User): Promise<void> {
  const answer = await call(baseUrl, 'POST', '/api/subscription/upgrade', {
    headers: { ...userHeaders(user), 'idempotency-key': randomUUID() },
    body: { plan: 'premium+', billingCycle: 'monthly', card: { name: 'Bench User', number: VISA, expMonth: 12, expYear, cvv: '123', zip: '12345' } },
  });
  expectStatus(answer, 200, `upgrade ${user.email}`);
}

/**
 * ACH saved with its details (a made-up account at a real routing number), registered with the
 * demo payout provider: a cash-out is paid only to a method with a destination (decision 172).
 */
export async function saveAchPayoutMethod(baseUrl: string, user: User): Promise<void> {
  const answer = await call(baseUrl, 'POST', '/api/payout-methods', {
    headers: userHeaders(user),
    body: { method: 'ach', detail: '000123456789', routingNumber: '021000021' },
  });
  expectStatus(answer, 201, `payout method ${user.email}`);
}

type CombineBody = { id: string; funding: { suggestedChargeCents: { card: number } } };

/** A draft of `baseDollars` funded by two card sources and reviewed (quoted): ready to complete. */
export async function prepareDraft(baseUrl: string, user: User, baseDollars: number): Promise<Draft> {
  const headers = userHeaders(user);
  const created = await call(baseUrl, 'POST', '/api/combines', { headers, body: { baseInput: String(baseDollars), bufferInput: '0', bufferMode: 'percent' } });
  expectStatus(created, 201, 'create combine');
  const combine = created.body as CombineBody;
  const card = (number: string, provider: string, chargeCents: number) => ({ type: 'credit', provider, chargeCents, cardNumber: number, expMonth: 12, expYear, cvv: '123' });
  const firstCharge = Math.ceil(combine.funding.suggestedChargeCents.card / 2);
  const first = await call(baseUrl, 'POST', `/api/combines/${combine.id}/sources`, { headers, body: card(VISA, 'visa', firstCharge) });
  expectStatus(first, 201, 'first source');
  const rest = (first.body as CombineBody).funding.suggestedChargeCents.card;
  const second = await call(baseUrl, 'POST', `/api/combines/${combine.id}/sources`, { headers, body: card(MASTERCARD, 'mastercard', rest) });
  expectStatus(second, 201, 'second source');
  const quote = await call(baseUrl, 'POST', `/api/combines/${combine.id}/quote`, { headers, body: COMPLETE_CHOICES });
  expectStatus(quote, 200, 'quote');
  const q = quote.body as Expected;
  return { user, combineId: combine.id, expected: { cardAmountCents: q.cardAmountCents, totalChargedCents: q.totalChargedCents, productFeeCents: q.productFeeCents } };
}

export function completeBody(draft: Draft): string {
  return JSON.stringify({ ...COMPLETE_CHOICES, expected: draft.expected });
}

/** Completes a prepared draft; returns the new card's id. */
export async function completeDraft(baseUrl: string, draft: Draft): Promise<string> {
  const answer = await call(baseUrl, 'POST', `/api/combines/${draft.combineId}/complete`, {
    headers: { ...userHeaders(draft.user), 'idempotency-key': randomUUID() },
    body: JSON.parse(completeBody(draft)),
  });
  expectStatus(answer, 201, 'complete');
  return (answer.body as { card: { id: string } }).card.id;
}

/** Runs `work` over `items` with at most `limit` in flight, in order of the items. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index] as T, index);
      }
    }),
  );
  return results;
}
