// A small client over app.inject() for API tests: sign up, then call endpoints as that user.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

export const TEST_PASSWORD = 'Sturdy-Pass-2026';
// Source card numbers used by tests only (never in app code): Visa and Mastercard test numbers.
export const TEST_VISA = '4242424242424242';
export const TEST_MASTERCARD = '5555555555554444';

/**
 * What POST /api/payout-methods takes for each method so the payout provider registers a destination
 * (decision 168): a cash-out is paid only to a method with one (decision 172).
 */
export const PAYOUT_DETAILS = {
  ach: { method: 'ach', detail: '000123456789', routingNumber: '021000021' },
  paypal: { method: 'paypal', detail: 'ada@example.com' },
  cashapp: { method: 'cashapp', detail: '$ada' },
} as const;

export type ApiUser = {
  email: string;
  cookie: string;
  request(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
};

export function sessionCookieFrom(response: LightMyRequestResponse): string {
  const setCookie = response.headers['set-cookie'];
  const cookies = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const session = cookies.map((c) => c.split(';')[0] ?? '').find((c) => c.startsWith('pw_session='));
  if (!session) throw new Error(`no session cookie in response ${response.statusCode}: ${response.body}`);
  return session;
}

/** A signed-in user; like a browser, it keeps the new session cookie when the server rotates it (re-authentication). */
export function asUser(app: FastifyInstance, email: string, cookie: string): ApiUser {
  const user: ApiUser = {
    email,
    cookie,
    async request(method, url, body, headers = {}) {
      const response = await app.inject({
        method,
        url,
        headers: { cookie: user.cookie, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
      });
      const rotated = newSessionCookieOf(response);
      if (rotated && !('cookie' in headers)) user.cookie = rotated;
      return response;
    },
  };
  return user;
}

function newSessionCookieOf(response: LightMyRequestResponse): string | undefined {
  try {
    const cookie = sessionCookieFrom(response);
    return cookie === 'pw_session=' ? undefined : cookie;
  } catch {
    return undefined;
  }
}

export async function registerUser(app: FastifyInstance, email = `user-${randomUUID()}@example.com`): Promise<ApiUser> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    // Each test user signs up from its own address so per-IP sign-up limits don't throttle test setup.
    remoteAddress: `10.${randomOctet()}.${randomOctet()}.${randomOctet()}`,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ email, password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD, acceptTerms: true }),
  });
  if (response.statusCode !== 201) throw new Error(`register failed ${response.statusCode}: ${response.body}`);
  return asUser(app, email, sessionCookieFrom(response));
}

function randomOctet(): number {
  return Math.floor(Math.random() * 254) + 1;
}

type CardSourceSpec = { type?: 'credit' | 'debit' | 'prepaid'; provider?: string; chargeCents: number; cardNumber?: string };
type BnplSourceSpec = { type: 'bnpl'; provider: string; chargeCents: number };

export async function startCombine(user: ApiUser, baseInput: string, bufferInput = '10', bufferMode: 'percent' | 'dollars' = 'percent') {
  const res = await user.request('POST', '/api/combines', { baseInput, bufferInput, bufferMode });
  if (res.statusCode !== 201) throw new Error(`create combine ${res.statusCode}: ${res.body}`);
  return res.json() as { id: string; totalAmountCents: number; funding: { remainingToFundCents: number; suggestedChargeCents: { card: number; bnpl: number } } };
}

export async function addSource(user: ApiUser, combineId: string, spec: CardSourceSpec | BnplSourceSpec) {
  const body =
    spec.type === 'bnpl'
      ? spec
      : { type: spec.type ?? 'credit', provider: spec.provider ?? 'visa', chargeCents: spec.chargeCents, cardNumber: spec.cardNumber ?? TEST_VISA, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvv: '123' };
  return user.request('POST', `/api/combines/${combineId}/sources`, body);
}

/** Funds a combine with one card source charging exactly what is needed, quotes and completes it. */
export async function createCard(user: ApiUser, baseInput: string, options: { bufferInput?: string; useBoost?: boolean; cardType?: 'general' | 'single-use'; key?: string } = {}) {
  const combine = await startCombine(user, baseInput, options.bufferInput ?? '0');
  const added = await addSource(user, combine.id, { chargeCents: combine.funding.suggestedChargeCents.card });
  if (added.statusCode !== 201) throw new Error(`add source ${added.statusCode}: ${added.body}`);
  return completeWithQuote(user, combine.id, options);
}

export async function completeWithQuote(user: ApiUser, combineId: string, options: { useBoost?: boolean; cardType?: 'general' | 'single-use'; key?: string; creationFeeSourceIdx?: number } = {}) {
  const choices = { useBoost: options.useBoost ?? false, creationFeeSourceIdx: options.creationFeeSourceIdx ?? -1, cardType: options.cardType ?? 'general' };
  const quoteRes = await user.request('POST', `/api/combines/${combineId}/quote`, choices);
  if (quoteRes.statusCode !== 200) throw new Error(`quote ${quoteRes.statusCode}: ${quoteRes.body}`);
  const quote = quoteRes.json() as { cardAmountCents: number; totalChargedCents: number; productFeeCents: number };
  return user.request(
    'POST',
    `/api/combines/${combineId}/complete`,
    { ...choices, expected: { cardAmountCents: quote.cardAmountCents, totalChargedCents: quote.totalChargedCents, productFeeCents: quote.productFeeCents } },
    { 'idempotency-key': options.key ?? randomUUID() },
  );
}
