// The recorded day (tests/integration/scripted-day.test.ts): what the database holds at the end of
// it, and the normalisation that makes two runs comparable. What is random (ids, tokens, the
// issued cards' numbers and networks) or comes from the real clock becomes a label; money,
// statuses, codes, messages and counts stay exactly as they are, since they are what is compared.
import { hash } from 'node:crypto';
import type { Db } from '../../src/server/db/client';
import type { DemoCall } from '../../src/server/adapters/demo-calls';
import * as schema from '../../src/server/db/schema';
import { queryRows } from './db-snapshot';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const TOKEN = /tok_demo_[0-9a-f]+/g;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const MASKED_LAST4 = /•••• (\d{4})\b/g;
const LAST4_KEYS = new Set(['last4', 'cardLast4', 'bnplCardLast4']);
const DAY_MS = 86_400_000;

export type NormaliserOptions = {
  /** The app's clock at the start of the day: its times become offsets from it. */
  dayStartMs: number;
  /** The real clock when the test started: times from then on come from the database's now(). */
  realStartMs: number;
  /** The last 4 digits of the cards the processor issued (random, and distinct: see the test's processor). */
  issuedLast4: ReadonlySet<string>;
};

/**
 * Replaces random values by labels numbered in order of first appearance (`<id:7>`), so the same
 * id is the same label everywhere in the record. Object keys are visited in sorted order, so a
 * response that lists its fields in another order numbers its ids the same way.
 */
export class Normaliser {
  private readonly labels = new Map<string, string>();
  private readonly counts = new Map<string, number>();
  constructor(private readonly options: NormaliserOptions) {}

  normalise(value: unknown): unknown {
    return this.walk(value, undefined, undefined, true);
  }

  /** The normalised form as a string, without numbering anything new: a sort key. */
  peek(value: unknown): string {
    return JSON.stringify(this.walk(value, undefined, undefined, false));
  }

  private label(kind: string, raw: string, assign: boolean): string {
    const key = `${kind}:${raw.toLowerCase()}`;
    const known = this.labels.get(key);
    if (known || !assign) return known ?? `<${kind}:?>`;
    const n = (this.counts.get(kind) ?? 0) + 1;
    this.counts.set(kind, n);
    const made = `<${kind}:${n}>`;
    this.labels.set(key, made);
    return made;
  }

  private time(ms: number): string {
    const { dayStartMs, realStartMs } = this.options;
    // The app's clock and what is computed from it (a card valid 12 months, a plan's period) stay
    // within a few years of the day; the real clock is years later (the day is set in the past).
    if (Math.abs(ms - dayStartMs) < 3 * 365 * DAY_MS) return `${ms < dayStartMs ? '-' : '+'}${Math.abs(ms - dayStartMs)}ms`;
    if (ms >= realStartMs - 3_600_000 && ms <= Date.now() + 3_600_000) return '<time>';
    return new Date(ms).toISOString();
  }

  private text(value: string, key: string | undefined, siblings: Record<string, unknown> | undefined, assign: boolean): string {
    if (ISO_TIME.test(value)) return this.time(Date.parse(value));
    const { issuedLast4 } = this.options;
    if (key && LAST4_KEYS.has(key) && issuedLast4.has(value)) return this.label('last4', value, assign);
    // The issued card's network is drawn at random; a card used as a source shows it as its brand.
    if (key === 'network' || (key === 'brand' && siblings && typeof siblings.sourceCardId === 'string')) return '<network>';
    return value
      .replace(UUID, (id) => this.label('id', id, assign))
      .replace(TOKEN, (token) => `tok_demo_${this.label('token', token, assign)}`)
      .replace(MASKED_LAST4, (whole, digits: string) => (issuedLast4.has(digits) ? `•••• ${this.label('last4', digits, assign)}` : whole));
  }

  private walk(value: unknown, key: string | undefined, siblings: Record<string, unknown> | undefined, assign: boolean): unknown {
    if (value instanceof Date) return this.time(value.getTime());
    if (typeof value === 'string') return this.text(value, key, siblings, assign);
    if (Array.isArray(value)) return value.map((item) => this.walk(item, undefined, undefined, assign));
    if (value !== null && typeof value === 'object') {
      const object = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(object).sort()) out[k] = this.walk(object[k], k, object, assign);
      return out;
    }
    return value;
  }
}

/** Rows in a stable order: by the step that created them, then by what they hold (ids already named). */
export function inStableOrder<T extends { step: string }>(rows: T[], stepOrder: readonly string[], normaliser: Normaliser): T[] {
  const index = (step: string) => stepOrder.indexOf(step);
  const keyed = rows.map((row) => ({ row, step: index(row.step), key: normaliser.peek(row) }));
  keyed.sort((a, b) => a.step - b.step || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return keyed.map((k) => k.row);
}

/** Each row of the recorded tables, as `table:key`: which step created a row is read from these sets. */
export async function rowKeys(db: Db): Promise<string[]> {
  const rows = await queryRows<{ k: string }>(
    db,
    `select 'users:' || id as k from users
     union all select 'payout_methods:' || user_id || ':' || method from payout_methods
     union all select 'combines:' || id from combines
     union all select 'combine_sources:' || id from combine_sources
     union all select 'cards:' || id from cards
     union all select 'transactions:' || id from transactions
     union all select 'rebates:' || id from rebates
     union all select 'journals:' || id from journals
     union all select 'money_effects:' || id from money_effects
     union all select 'idempotency_keys:' || user_id || ':' || key from idempotency_keys
     union all select 'subscription_payments:' || id from subscription_payments
     union all select 'ledger_accounts:' || id from ledger_accounts`,
  );
  return rows.map((row) => row.k);
}

/** The fingerprint of a request as an Idempotency-Key stores it: method, route and canonical body (docs/rules.md#idempotency). */
export function fingerprintOf(method: string, route: string, body: unknown): string {
  const canonical = (value: unknown): string => {
    if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
    if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  };
  return hash('sha256', `${method} ${route}\n${canonical(body)}`, 'hex');
}

type Born = (table: string, key: string) => string;
const omit = <T extends object, K extends keyof T>(row: T, keys: readonly K[]): Omit<T, K> =>
  Object.fromEntries(Object.entries(row).filter(([k]) => !(keys as readonly PropertyKey[]).includes(k))) as Omit<T, K>;

/**
 * What the database holds at the end of the day, raw (to be put in order and normalised): every
 * row the money code writes, each with the step that created it. `fingerprints` names the
 * request each Idempotency-Key was first used for.
 */
export async function readEndOfDay(db: Db, born: Born, fingerprints: ReadonlyMap<string, string>, calls: ReadonlyArray<DemoCall & { step: string }>) {
  const step = (table: string, key: string) => ({ step: born(table, key) });
  const users = await db.select().from(schema.users);
  const accounts = await db.select().from(schema.ledgerAccounts);
  const codeOf = new Map(accounts.map((a) => [a.id, a.code]));
  const entries = await db.select().from(schema.journalEntries);
  return {
    users: users.map((u) => ({
      ...step('users', u.id),
      ...pick(u, ['id', 'email', 'subscription', 'billingCycle', 'subscriptionPriceCents', 'subscriptionUpdated', 'currentSubscriptionStart', 'subscriptionPeriodEnd', 'cancelAtPeriodEnd', 'loyaltyDiscountMonths', 'boostsUsed', 'boostsAvailable', 'combineTotal', 'promo50offFirstYear', 'promoStart', 'promoEnd', 'preferredPayout', 'closedAt']),
    })),
    payoutMethods: (await db.select().from(schema.payoutMethods)).map((m) => ({ ...step('payout_methods', `${m.userId}:${m.method}`), ...m })),
    combines: (await db.select().from(schema.combines)).map((c) => ({ ...step('combines', c.id), ...c })),
    combineSources: (await db.select().from(schema.combineSources)).map((s) => ({ ...step('combine_sources', s.id), ...s })),
    // The ciphertexts of the number and CVV are random (a fresh IV each); the reveal is not part of the day.
    cards: (await db.select().from(schema.cards)).map((c) => ({ ...step('cards', c.id), ...omit(c, ['numberEnc', 'cvvEnc']) })),
    transactions: (await db.select().from(schema.transactions)).map((t) => ({ ...step('transactions', t.id), ...t })),
    rebates: (await db.select().from(schema.rebates)).map((r) => ({ ...step('rebates', r.id), ...r })),
    subscriptionPayments: (await db.select().from(schema.subscriptionPayments)).map((p) => ({ ...step('subscription_payments', p.id), ...p })),
    journals: (await db.select().from(schema.journals)).map((j) => ({
      ...step('journals', j.id),
      ...j,
      entries: entries.filter((e) => e.journalId === j.id).map((e) => ({ account: codeOf.get(e.accountId), amountCents: e.amountCents })),
    })),
    ledgerAccounts: accounts.map((a) => ({
      ...step('ledger_accounts', a.id),
      ...a,
      entriesSumCents: entries.filter((e) => e.accountId === a.id).reduce((sum, e) => sum + e.amountCents, 0),
    })),
    moneyEffects: (await db.select().from(schema.moneyEffects)).map((e) => ({ ...step('money_effects', e.id), ...e })),
    idempotencyKeys: (await db.select().from(schema.idempotencyKeys)).map((k) => ({
      ...step('idempotency_keys', `${k.userId}:${k.key}`),
      ...k,
      fingerprint: fingerprints.get(`${k.userId}:${k.key}`) === k.fingerprint ? 'sha256 of the request (method, route, canonical body)' : `another fingerprint than the request's`,
    })),
    promo: await db.select().from(schema.systemPromos),
    // What the outside systems were asked, as they saw it, in the step that asked (e-mail is not money).
    outsideCalls: calls.filter((c) => !c.op.startsWith('mailer.')).map((c) => omit(c, ['at'])),
  };
}

function pick<T extends object>(row: T, keys: ReadonlyArray<keyof T>): Partial<T> {
  return Object.fromEntries(keys.map((k) => [k, row[k]])) as Partial<T>;
}

/** Where two records differ, as `path: recorded …, now …` lines. */
export function differences(recorded: unknown, now: unknown, path = '$', out: string[] = []): string[] {
  const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v));
  if (Array.isArray(recorded) && Array.isArray(now)) {
    // An element that names its step says so in the path: `$.end.journals[5 "ada: A, complete"]`.
    const named = (v: unknown) => (v && typeof v === 'object' && typeof (v as { step?: unknown }).step === 'string' ? ` ${JSON.stringify((v as { step: string }).step)}` : '');
    for (let i = 0; i < Math.max(recorded.length, now.length); i += 1) differences(recorded[i], now[i], `${path}[${i}${named(recorded[i] ?? now[i])}]`, out);
  } else if (recorded && now && typeof recorded === 'object' && typeof now === 'object' && !Array.isArray(recorded) && !Array.isArray(now)) {
    const a = recorded as Record<string, unknown>;
    const b = now as Record<string, unknown>;
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) differences(a[key], b[key], `${path}.${key}`, out);
  } else if (JSON.stringify(recorded) !== JSON.stringify(now)) {
    out.push(`${path}: recorded ${show(recorded)}, now ${show(now)}`);
  }
  return out;
}
