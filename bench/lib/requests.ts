// The requests each scenario sends, made one at a time from what was prepared: the same ones for
// autocannon's closed loop (capacity and CPU per answer) and for the open loop of honest.ts
// (latency at half the capacity, and the honest users beside a flood).
import { randomUUID } from 'node:crypto';
import type { Request } from 'autocannon';
import { BENCH_PASSWORD, completeBody, userHeaders, type Draft, type User } from './api';
import type { HonestRequest } from './honest';

export type OwnedCard = { user: User; cardId: string };
export type NextRequest = () => HonestRequest;

const JSON_HEADERS = { 'content-type': 'application/json' };

export function cycle<T>(items: readonly T[]): () => T {
  if (items.length === 0) throw new Error('nothing prepared for this scenario');
  let i = 0;
  return () => items[i++ % items.length] as T;
}

/** Each item once. Past the end it repeats the last one (its answer, a 409, then shows as not 2xx). */
export function queue<T>(items: readonly T[]): () => T {
  if (items.length === 0) throw new Error('nothing prepared for this scenario');
  let i = 0;
  return () => items[Math.min(i++, items.length - 1)] as T;
}

export function signInRequests(users: readonly User[]): NextRequest {
  const next = cycle(users);
  return () => {
    const user = next();
    return { method: 'POST', path: '/api/auth/login', headers: { ...JSON_HEADERS, ...(user.ip ? { 'x-forwarded-for': user.ip } : {}) }, body: JSON.stringify({ email: user.email, password: BENCH_PASSWORD }) };
  };
}

export function listCardsRequests(users: readonly User[]): NextRequest {
  const next = cycle(users);
  return () => ({ method: 'GET', path: '/api/cards', headers: userHeaders(next()) });
}

/** Each draft completed once (a completion needs a draft of its own). */
export function completeRequests(drafts: readonly Draft[]): NextRequest {
  const next = queue(drafts);
  return () => {
    const draft = next();
    return {
      method: 'POST',
      path: `/api/combines/${draft.combineId}/complete`,
      headers: { ...JSON_HEADERS, ...userHeaders(draft.user), 'idempotency-key': randomUUID() },
      body: completeBody(draft),
    };
  };
}

/** $1.00 of a card, by ACH (saved with its details when the card was prepared). */
export function cashoutRequests(cards: readonly OwnedCard[]): NextRequest {
  const next = cycle(cards);
  return () => {
    const { user, cardId } = next();
    return {
      method: 'POST',
      path: '/api/cashouts',
      headers: { ...JSON_HEADERS, ...userHeaders(user), 'idempotency-key': randomUUID() },
      body: JSON.stringify({ cardId, amountCents: 100, payoutMethod: 'ach' }),
    };
  };
}

/** A $1.00 purchase at a demo merchant (demo mode's simulated purchase, declines off). */
export function purchaseRequests(cards: readonly OwnedCard[]): NextRequest {
  const next = cycle(cards);
  return () => {
    const { user, cardId } = next();
    return {
      method: 'POST',
      path: `/api/cards/${cardId}/purchases`,
      headers: { ...JSON_HEADERS, ...userHeaders(user), 'idempotency-key': randomUUID() },
      body: JSON.stringify({ merchant: 'Bench Coffee', amountCents: 100 }),
    };
  };
}

/** The same requests for autocannon: each one made when a connection is about to send it. */
export function forAutocannon(next: NextRequest): Request {
  return {
    method: 'GET',
    path: '/',
    setupRequest: (request) => {
      const { method, path, headers, body } = next();
      return { ...request, method, path, headers: headers ?? {}, ...(body !== undefined ? { body } : {}) };
    },
  };
}
