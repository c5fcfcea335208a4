// Floods against honest traffic.
//
// Isolation (docs/rules.md#perf-isolation): a sign-in flood (autocannon at the bench's connection count, rate limits
// off as in every scenario) while honest users list their cards and cash out at a steady rate; their
// p99 must stay within twice what it was without the flood, measured just before.
//
// Attack: a server with rate limits on and TRUST_PROXY=true, 16 connections from 16
// addresses (X-Forwarded-For), half regenerating recovery codes on accounts of their own (each a
// password check, and on the old code 10 argon2id hashes), half signing in with wrong passwords to
// the honest users' e-mails. The honest users, each from an address of its own, keep listing cards,
// cashing out and signing in: card list and cash-out within twice their unloaded p99, sign-in within
// 1 s at p99, and none of their requests refused.
import { randomUUID } from 'node:crypto';
import type { Request } from 'autocannon';
import { BENCH_PASSWORD, call, completeDraft, mapLimit, prepareDraft, register, saveAchPayoutMethod, userHeaders, type User } from './api';
import { runHonest, type HonestFigures, type HonestStream } from './honest';
import { runLoad, type Figures } from './load';
import type { BenchOptions } from './options';
import { cashoutRequests, cycle, forAutocannon, listCardsRequests, signInRequests, type OwnedCard } from './requests';
import type { Prepared } from './scenarios';
import { totpCode } from './totp';

const JSON_HEADERS = { 'content-type': 'application/json' };

export type PhaseFigures = Record<string, HonestFigures>;

export type FloodResult = {
  /** Honest traffic alone, then with the flood. */
  unloaded: PhaseFigures;
  loaded: PhaseFigures;
  /** The flood's own answers (statuses tell what the server did with it). */
  flood: Figures;
  /** Rates of the honest streams, per second. */
  rates: Record<string, number>;
  seconds: number;
};

function listStream(users: readonly User[], rate: number): HonestStream {
  return { name: 'list cards', rate, next: listCardsRequests(users) };
}

function cashoutStream(cards: readonly OwnedCard[], rate: number): HonestStream {
  return { name: 'cash out', rate, next: cashoutRequests(cards) };
}

function signInStream(users: readonly User[], rate: number): HonestStream {
  return { name: 'sign in', rate, next: signInRequests(users) };
}

async function unloadedThenLoaded(baseUrl: string, streams: HonestStream[], seconds: number, flood: () => Promise<Figures>): Promise<Omit<FloodResult, 'rates' | 'seconds'>> {
  const unloaded = await runHonest(baseUrl, streams, seconds);
  const flooding = flood();
  // The flood's first second is its ramp (connections opening, queues filling): honest traffic is
  // measured once it is on.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const loaded = await runHonest(baseUrl, streams, seconds);
  return { unloaded, loaded, flood: await flooding };
}

/** docs/rules.md#perf-isolation: a sign-in flood while card lists and cash-outs run. */
export async function measureIsolation(baseUrl: string, options: BenchOptions, prepared: Prepared, serverPid: number | undefined, databases: string[]): Promise<FloodResult> {
  const rates = { 'list cards': options.smoke ? 50 : 100, 'cash out': options.smoke ? 10 : 25 };
  const streams = [listStream(prepared.readUsers, rates['list cards']), cashoutStream(prepared.cashoutCards, rates['cash out'])];
  const signIn = forAutocannon(signInRequests(prepared.readUsers));
  const seconds = options.isolationSeconds;
  const result = await unloadedThenLoaded(baseUrl, streams, seconds, () =>
    // 503 (the argon2 pool's queue is full) is the server shedding the flood, as docs/rules.md#hashing-pool asks.
    runLoad({ url: baseUrl, connections: options.connections, duration: seconds + 2, requests: [signIn], serverPid, databases, expectedStatuses: [503] }),
  );
  return { ...result, rates, seconds };
}

export type AttackPrepared = {
  honest: User[];
  cards: OwnedCard[];
  signIn: User[];
  /** Accounts with two-factor on, whose owners (the attackers) regenerate their recovery codes. */
  attackers: User[];
};

const HONEST_USERS = 32;
/** The accounts the wrong-password attackers aim at: the first 8 of each kind of honest user, as before decision 146. */
const VICTIMS_OF_EACH_KIND = 8;
const honestIp = (i: number) => `198.51.100.${10 + i}`;
const signInIp = (i: number) => `198.51.100.${100 + i}`;
const attackerIp = (i: number) => `203.0.113.${10 + i}`;

async function enableTwoFactor(baseUrl: string, user: User): Promise<void> {
  const headers = userHeaders(user);
  const setup = await call(baseUrl, 'POST', '/api/me/two-factor/setup', { headers, body: {} });
  if (setup.status !== 200) throw new Error(`two-factor setup: ${setup.status} ${setup.text.slice(0, 300)}`);
  const secret = (setup.body as { secret: string }).secret;
  const enable = await call(baseUrl, 'POST', '/api/me/two-factor/enable', { headers, body: { code: totpCode(secret) } });
  if (enable.status !== 200) throw new Error(`two-factor enable: ${enable.status} ${enable.text.slice(0, 300)}`);
  // Enabling may rotate the session: keep whichever cookie the server set last.
  const rotated = enable.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] ?? '')
    .find((c) => c.startsWith('pw_session=') && c.length > 'pw_session='.length);
  if (rotated) user.cookie = rotated;
}

/** Accounts for the attack scenario, each registered from its own address (registration is limited per IP). */
export async function prepareAttack(baseUrl: string, options: BenchOptions): Promise<AttackPrepared> {
  const run = randomUUID().slice(0, 8);
  // 32 honest users of each kind (decisions 146 and 147): their p99 is then a figure of 1,920 card
  // lists, 480 cash-outs and 137 sign-ins per 30 s phase, not the third-slowest of 240 and the
  // slowest of 30.
  const honestCount = options.smoke ? 2 : HONEST_USERS;
  const honest = await mapLimit(Array.from({ length: honestCount }, (_, i) => i), 4, (i) => register(baseUrl, `bench-honest-${run}-${i}@example.com`, honestIp(i)));
  // Each with ACH saved with its details, as a user does in Settings before a first cash-out: a
  // cash-out is paid only to a registered destination (decision 172).
  const cards = await mapLimit(honest, 4, async (user) => {
    await saveAchPayoutMethod(baseUrl, user);
    return { user, cardId: await completeDraft(baseUrl, await prepareDraft(baseUrl, user, 1000)) };
  });
  const signIn = await mapLimit(Array.from({ length: honestCount }, (_, i) => i), 4, (i) => register(baseUrl, `bench-signin-${run}-${i}@example.com`, signInIp(i)));
  // The smoke shares 4 accounts among the 8 regenerating connections: two-factor setup hashes too.
  const attackers = await mapLimit(Array.from({ length: options.smoke ? 4 : 8 }, (_, i) => i), 4, async (i) => {
    const user = await register(baseUrl, `bench-attacker-${run}-${i}@example.com`, attackerIp(i));
    await enableTwoFactor(baseUrl, user);
    return user;
  });
  return { honest, cards, signIn, attackers };
}

type Attacker = { kind: 'regenerate' | 'wrong-password'; ip: string; attacker?: User; victim: () => User };
type AttackContext = { identity?: Attacker };

export async function measureAttack(baseUrl: string, options: BenchOptions, prepared: AttackPrepared, serverPid: number | undefined, databases: string[]): Promise<FloodResult> {
  // Per user: a card list every 0.5 s, a cash-out every 2 s, a sign-in every 7 s (under the
  // sign-in limit of 10 a minute per e-mail and per address, and at half the cash-out limit of 60
  // a minute per user, decision 084). Over 30 s phases that is 480 cash-outs each, so their p99 is
  // the fifth-slowest, not the second-slowest of 120 (decision 147).
  const users = prepared.honest.length;
  const rates = { 'list cards': users * 2, 'cash out': users / 2, 'sign in': users / 7 };
  const streams = [listStream(prepared.honest, rates['list cards']), cashoutStream(prepared.cards, rates['cash out']), signInStream(prepared.signIn, rates['sign in'])];
  // 16 attackers, each with an address of its own. autocannon clears a connection's context
  // before each request when there is only one request in the list, so the addresses cannot live
  // there: each request takes the next attacker in turn (16 connections, about one request of
  // each attacker in flight), and the context only carries it to onResponse.
  const victims = [...prepared.signIn.slice(0, VICTIMS_OF_EACH_KIND), ...prepared.honest.slice(0, VICTIMS_OF_EACH_KIND)];
  const attackers: Attacker[] = Array.from({ length: 16 }, (_, n) => ({
    kind: n % 2 === 0 ? 'regenerate' : 'wrong-password',
    ip: `203.0.113.${100 + n}`,
    attacker: prepared.attackers[Math.floor(n / 2) % prepared.attackers.length],
    victim: cycle(victims),
  }));
  const nextAttacker = cycle(attackers);
  const attack: Request = {
    method: 'POST',
    path: '/api/auth/login',
    setupRequest: (request, raw) => {
      const context = raw as AttackContext;
      const identity = nextAttacker();
      context.identity = identity;
      if (identity.kind === 'regenerate' && identity.attacker) {
        return {
          ...request,
          path: '/api/me/two-factor/recovery-codes',
          headers: { ...JSON_HEADERS, cookie: identity.attacker.cookie, 'x-forwarded-for': identity.ip },
          body: JSON.stringify({ currentPassword: BENCH_PASSWORD }),
        };
      }
      return {
        ...request,
        path: '/api/auth/login',
        headers: { ...JSON_HEADERS, 'x-forwarded-for': identity.ip },
        body: JSON.stringify({ email: identity.victim().email, password: 'Wrong-Pass-0000' }),
      };
    },
    onResponse: (_status, _body, raw, headers) => {
      // A re-authentication may rotate the session: follow it, as a browser would.
      const attacker = (raw as AttackContext).identity?.attacker;
      const setCookie: string[] | string | undefined = headers?.['set-cookie'];
      const cookies = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
      const session = cookies.map((c) => c.split(';')[0] ?? '').find((c) => c.startsWith('pw_session=') && c.length > 'pw_session='.length);
      if (session && attacker) attacker.cookie = session;
    },
  };
  const seconds = options.attackSeconds;
  const result = await unloadedThenLoaded(baseUrl, streams, seconds, () =>
    runLoad({ url: baseUrl, connections: 16, duration: seconds + 2, requests: [attack], serverPid, databases, expectedStatuses: [400, 401, 403, 409, 429, 503] }),
  );
  return { ...result, rates, seconds };
}
