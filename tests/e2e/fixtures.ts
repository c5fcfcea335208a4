// What several e2e specs set up before their subject, through the API (demo mode): a signed-up
// user, a card with a balance, a payout destination. One place, so the specs cannot drift apart.
import { randomUUID } from 'node:crypto';
import { expect } from '@playwright/test';
import type { APIRequestContext, APIResponse, Page } from '@playwright/test';

export const PASSWORD = 'Sturdy-Pass-2026';
export const VISA = '4242424242424242';

export type IssuedCard = { id: string; last4: string; originalAmountCents: number; remainingAmountCents: number };
export type Combine = { id: string; funding: { suggestedChargeCents: { card: number; internal: number } } };
type Headers = Record<string, string>;

/** The answer's JSON (null for a 204), after checking it is a success; the failure names the call. */
export async function ok<T>(response: APIResponse): Promise<T> {
  expect(response.ok(), `${response.url()} ${response.status()} ${await response.text()}`).toBe(true);
  return (response.status() === 204 ? null : await response.json()) as T;
}

/**
 * Registers a new user (signed in on `page` from then on) and returns the e-mail. `label` starts
 * the address, to tell the specs' users apart; `origin` is sent as the Origin header when given.
 * Registration is rate-limited per IP and the whole suite shares one: a 429 is waited out.
 */
export async function signUp(page: Page, options: { label?: string; origin?: string } = {}): Promise<string> {
  const email = `${options.label ?? 'e2e'}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const headers = options.origin !== undefined ? { origin: options.origin } : undefined;
  for (let attempt = 0; attempt < 4; attempt += 1) {
    const response = await page.request.post('/api/auth/register', { data: { email, password: PASSWORD, confirmPassword: PASSWORD, acceptTerms: true }, headers });
    if (response.status() !== 429) {
      expect(response.status(), await response.text()).toBe(201);
      return email;
    }
    await page.waitForTimeout(20_000);
  }
  throw new Error('registration stayed rate-limited');
}

/**
 * A completed combine of `base` dollars (no tax buffer) funded by one Visa credit card charging
 * what the server suggests, through the wizard's API: the card it made, with its balance.
 */
export async function cardWithBalance(
  request: APIRequestContext,
  base: string,
  options: { cardType?: 'general' | 'single-use'; headers?: Headers } = {},
): Promise<{ combineId: string; card: IssuedCard }> {
  const headers = options.headers ?? {};
  const combine = await ok<Combine>(await request.post('/api/combines', { headers, data: { baseInput: base, bufferInput: '0', bufferMode: 'percent' } }));
  await ok(
    await request.post(`/api/combines/${combine.id}/sources`, {
      headers,
      data: { type: 'credit', provider: 'visa', chargeCents: combine.funding.suggestedChargeCents.card, cardNumber: VISA, expMonth: 12, expYear: new Date().getFullYear() + 2, cvv: '123' },
    }),
  );
  return completeCombine(request, combine.id, options);
}

/** Quotes a funded combine with the default choices and completes it with that quote's figures. */
export async function completeCombine(
  request: APIRequestContext,
  combineId: string,
  options: { cardType?: 'general' | 'single-use'; headers?: Headers } = {},
): Promise<{ combineId: string; card: IssuedCard }> {
  const headers = options.headers ?? {};
  const choices = { useBoost: false, creationFeeSourceIdx: -1, cardType: options.cardType ?? 'general' };
  const quote = await ok<{ cardAmountCents: number; totalChargedCents: number; productFeeCents: number }>(await request.post(`/api/combines/${combineId}/quote`, { headers, data: choices }));
  const done = await ok<{ card: IssuedCard }>(
    await request.post(`/api/combines/${combineId}/complete`, {
      headers: { ...headers, 'idempotency-key': randomUUID() },
      data: { ...choices, expected: { cardAmountCents: quote.cardAmountCents, totalChargedCents: quote.totalChargedCents, productFeeCents: quote.productFeeCents } },
    }),
  );
  return { combineId, card: done.card };
}

/**
 * ACH saved as a payout method with a bank the payout provider knows (decision 171: a valid
 * routing number and an account). `details: false` saves it without them, as an API client
 * older than payout details did: such a method is refused for a payout until its details are given
 * (decision 172).
 */
export async function payoutDestination(request: APIRequestContext, options: { details?: boolean; headers?: Headers } = {}): Promise<void> {
  const data = options.details === false ? { method: 'ach' } : { method: 'ach', detail: '000123456789', routingNumber: '021000021' };
  await ok(await request.post('/api/payout-methods', { headers: options.headers ?? {}, data }));
}
