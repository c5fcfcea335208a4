// Fee boosts (docs/rules.md#boosts): a boost waives the product fee for one combine. At most 3 are held
// at once and at most 3 are used in a lifetime; both limits apply.

export const BOOSTS = {
  maxHeld: 3,
  maxLifetimeUsed: 3,
  combinesPerBoost: 3,
} as const;

export const BOOST_MESSAGES = {
  noneAvailable: 'You have no boosts available. Earn boosts by completing more combines.',
  lifetimeLimit: 'You have used all 3 of your boosts. Each account can use at most 3.',
} as const;

export const BOOST_EARNED_MESSAGE =
  'Nice work! You earned a Boost: you get one for every 3 combines (up to 3 held at a time). Use it on a future combine to waive the product fee.';

export interface BoostCounts {
  boostsAvailable: number;
  boostsUsed: number;
}

function assertCount(value: number, name: string): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  }
}

export type BoostCheck =
  | { ok: true }
  | { ok: false; reason: 'none_available' | 'lifetime_limit'; message: string };

/** The lifetime limit is checked first: it is the one that earning more boosts cannot fix. */
export function canUseBoost(counts: BoostCounts): BoostCheck {
  assertCount(counts.boostsAvailable, 'boostsAvailable');
  assertCount(counts.boostsUsed, 'boostsUsed');
  if (counts.boostsUsed >= BOOSTS.maxLifetimeUsed) {
    return { ok: false, reason: 'lifetime_limit', message: BOOST_MESSAGES.lifetimeLimit };
  }
  if (counts.boostsAvailable <= 0) {
    return { ok: false, reason: 'none_available', message: BOOST_MESSAGES.noneAvailable };
  }
  return { ok: true };
}

export interface CombineCompletion {
  combineTotal: number;
  boostsAvailable: number;
  boostsUsed: number;
  earnedBoost: boolean;
}

/**
 * Counters after a completed combine: a used boost is spent first, then combineTotal += 1, and
 * a boost is earned when fewer than 3 are then held and the new combineTotal is a multiple of 3.
 * Throws if a boost was used that could not be used: the server must have refused it earlier.
 */
export function applyCombineCompletion(input: {
  combineTotal: number;
  boostsAvailable: number;
  boostsUsed: number;
  usedBoost: boolean;
}): CombineCompletion {
  assertCount(input.combineTotal, 'combineTotal');
  let { boostsAvailable, boostsUsed } = input;
  if (input.usedBoost) {
    const check = canUseBoost({ boostsAvailable, boostsUsed });
    if (!check.ok) throw new Error(`boost used without being usable: ${check.reason}`);
    boostsAvailable -= 1;
    boostsUsed += 1;
  } else {
    assertCount(boostsAvailable, 'boostsAvailable');
    assertCount(boostsUsed, 'boostsUsed');
  }
  const combineTotal = input.combineTotal + 1;
  const earnedBoost = boostsAvailable < BOOSTS.maxHeld && combineTotal % BOOSTS.combinesPerBoost === 0;
  if (earnedBoost) boostsAvailable += 1;
  return { combineTotal, boostsAvailable, boostsUsed, earnedBoost };
}
