// The owner's own controls on one card, as stored: spending limits over trailing windows, a merchant
// lock and merchant categories. They only ever decide new purchases (spend-controls-authorize.ts);
// money already spent stays spent whatever the controls later become. The card's own state (closed,
// expired, frozen, balance) is decided around them, in planPurchase (docs/rules.md#card-controls).

/** The merchant category groups an owner can block or allow, in the order the UI lists them. */
export const SPEND_CATEGORIES = [
  { id: 'groceries', label: 'Groceries' },
  { id: 'restaurants', label: 'Restaurants' },
  { id: 'travel', label: 'Travel' },
  { id: 'digital_goods', label: 'Digital goods' },
  { id: 'gambling', label: 'Gambling' },
  { id: 'cash_like', label: 'Cash-like (money orders, crypto, gift cards)' },
  { id: 'other', label: 'Other' },
] as const;

export type SpendCategory = (typeof SPEND_CATEGORIES)[number]['id'];

export const SPEND_CATEGORY_IDS: readonly SpendCategory[] = SPEND_CATEGORIES.map((c) => c.id);

export function isSpendCategory(value: unknown): value is SpendCategory {
  return typeof value === 'string' && (SPEND_CATEGORY_IDS as readonly string[]).includes(value);
}

export function spendCategoryLabel(category: SpendCategory): string {
  return SPEND_CATEGORIES.find((c) => c.id === category)?.label ?? category;
}

/** 'first': locked to whichever merchant the next approved purchase is at (merchantLockAfterApproval). */
export type MerchantLock = { mode: 'off' } | { mode: 'first' } | { mode: 'named'; merchant: string };

/** Block some categories or allow only some, never both (validateSpendControls refuses both). */
export type CategoryRule =
  | { mode: 'any' }
  | { mode: 'block'; list: readonly SpendCategory[] }
  | { mode: 'allow_only'; list: readonly SpendCategory[] };

/** Each limit is positive whole cents, or null when unset. */
export type SpendLimits = {
  perTransactionCents: number | null;
  perDayCents: number | null;
  per30DaysCents: number | null;
  perYearCents: number | null;
  lifetimeCents: number | null;
};

export type SpendControls = SpendLimits & { merchantLock: MerchantLock; categories: CategoryRule };

export const DEFAULT_CONTROLS: SpendControls = Object.freeze({
  perTransactionCents: null,
  perDayCents: null,
  per30DaysCents: null,
  perYearCents: null,
  lifetimeCents: null,
  merchantLock: Object.freeze({ mode: 'off' }),
  categories: Object.freeze({ mode: 'any' }),
});

/** The window a spending limit is counted over; 'transaction' is one purchase on its own. */
export type SpendWindow = 'transaction' | 'day' | '30_days' | 'year' | 'lifetime';

/** Shortest first: a declined purchase names the longer of two windows that leave the same (spend-controls-authorize.ts). */
export const SPEND_WINDOWS: readonly SpendWindow[] = ['transaction', 'day', '30_days', 'year', 'lifetime'];

export const LIMIT_FIELD: Readonly<Record<SpendWindow, keyof SpendLimits>> = {
  transaction: 'perTransactionCents',
  day: 'perDayCents',
  '30_days': 'per30DaysCents',
  year: 'perYearCents',
  lifetime: 'lifetimeCents',
};

/** The reasons spend controls decline with; the planner adds the card's own (frozen, expired, ...). */
export type SpendDeclineReason = 'spend_limit' | 'merchant_locked' | 'category_blocked';

export type SpendDecline =
  | { ok: false; reason: 'spend_limit'; window: SpendWindow; leftCents: number; message: string }
  | { ok: false; reason: 'merchant_locked'; lockedTo: string; message: string }
  | { ok: false; reason: 'category_blocked'; category: SpendCategory; message: string };

export type SpendDecision = { ok: true } | SpendDecline;

/** One approved purchase of the card; other fields of a loaded row (merchant, id) are ignored. */
export type SpentPurchase = { amountCents: number; at: Date };

/**
 * What the server loads for a card: its approved purchases strictly after spendHistoryStart(now)
 * (older ones are outside every trailing window), and the total of all its approved purchases ever,
 * those included. Only purchases count: a cash-out or use as a source is the owner moving their own
 * money, not spending it at a merchant, so the card's amount_spent (docs/rules.md#card-figures,
 * which counts every debit) is not the lifetime figure.
 */
export type SpendHistory = { purchases: readonly SpentPurchase[]; lifetimeSpentCents: number };

export type SpendPurchase = { amountCents: number; merchant: string; category: SpendCategory };

/**
 * One merchant however its name was typed: spaces around and inside collapsed, case ignored,
 * so "Netflix " and "NETFLIX" are the lock's merchant and a typo-level variant cannot dodge it.
 */
export function merchantKey(merchant: string): string {
  return merchant.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

export function sameMerchant(a: string, b: string): boolean {
  return merchantKey(a) === merchantKey(b);
}

/**
 * The lock to store after an approved purchase at `merchant`: 'first' becomes locked to that
 * merchant (as typed, trimmed); any other lock is unchanged. Returns the same object when nothing changes.
 */
export function merchantLockAfterApproval(lock: MerchantLock, merchant: string): MerchantLock {
  if (lock.mode !== 'first') return lock;
  const name = merchant.trim();
  if (name === '') throw new RangeError('a purchase must name its merchant');
  return { mode: 'named', merchant: name };
}
