// The one card-number scrubber (docs/rules.md#never-logged): every free-text field that is
// stored or logged passes through it, so a card number a person pastes into a support message,
// a name, a merchant or a draft never reaches the database, an e-mail or a log line.
//
// What counts as a card number: 13 to 19 digits that pass the Luhn check, written in one piece
// or in groups separated by spaces or dashes ("4242 4242 4242 4242", "4242-4242-4242-4242").
// Digits written next to it do not hide it: in "order 1234 4242 4242 4242 4242" the four groups
// that make the card are removed and "1234" stays. Digits written against letters ("a1b2", a hex
// id) and UUIDs are not card numbers. Pure: no I/O, the same answer every time.
import { luhnValid } from './cards';

export const CARD_NUMBER_MASK = '[card number removed]';

export const CARD_NUMBER_MIN_DIGITS = 13;
export const CARD_NUMBER_MAX_DIGITS = 19;

/** Between two groups of digits: up to three spaces (any Unicode space) or dashes, e.g. " - ". */
const SEPARATOR = String.raw`[\s\u00a0\u2007\u202f\-\u2010-\u2015\u2212]`;
/**
 * A UUID (an id in a body, a log line) is never a card number, though its groups can be all
 * digits; and a maximal stretch of digit groups joined by separators (fullwidth digits were made
 * ASCII first). The first alternative takes UUIDs out of the search.
 */
const UUID = String.raw`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`;
const DIGIT_RUN = String.raw`\d(?:${SEPARATOR}{0,3}\d)*`;
const CANDIDATE = new RegExp(`(${UUID})|${DIGIT_RUN}`, 'gi');
const FULLWIDTH_DIGIT = /[\uff10-\uff19]/g;
/** A digit group written against a letter belongs to a word or a hex id ("34d62dcf"), not a card number. */
const WORD_CHARACTER = /[\p{L}_]/u;

type Group = { start: number; end: number; digits: string; glued: boolean };

/**
 * Replaces every card number in `text` with CARD_NUMBER_MASK and leaves everything else as it
 * was (fullwidth digits become ASCII digits). Idempotent: the mask holds no digit.
 */
export function scrubCardNumbers(text: string): string {
  const ascii = text.replace(FULLWIDTH_DIGIT, (digit) => String(digit.charCodeAt(0) - 0xff10));
  return ascii.replace(CANDIDATE, (run: string, uuid: string | undefined, offset: number, whole: string) =>
    uuid ? run : scrubRun(run, whole[offset - 1] ?? '', whole[offset + run.length] ?? ''),
  );
}

/** Whether `text` holds a card number (what scrubCardNumbers would remove). */
export function containsCardNumber(text: string): boolean {
  return scrubCardNumbers(text) !== text.replace(FULLWIDTH_DIGIT, (digit) => String(digit.charCodeAt(0) - 0xff10));
}

function scrubRun(run: string, before: string, after: string): string {
  const groups: Group[] = [];
  for (const match of run.matchAll(/\d+/g)) {
    const start = match.index;
    const end = start + match[0].length;
    const glued = (start === 0 && WORD_CHARACTER.test(before)) || (end === run.length && WORD_CHARACTER.test(after));
    groups.push({ start, end, digits: match[0], glued });
  }
  const total = groups.reduce((sum, group) => sum + group.digits.length, 0);
  if (total < CARD_NUMBER_MIN_DIGITS) return run;

  // Every window of whole consecutive groups holding 13-19 digits that pass Luhn is a card
  // number; the groups of all such windows are masked (an overlap is masked once).
  const masked = new Array<boolean>(groups.length).fill(false);
  for (let first = 0; first < groups.length; first += 1) {
    let digits = '';
    for (let last = first; last < groups.length && !groups[last]!.glued; last += 1) {
      digits += groups[last]!.digits;
      if (digits.length > CARD_NUMBER_MAX_DIGITS) break;
      if (digits.length >= CARD_NUMBER_MIN_DIGITS && luhnValid(digits)) masked.fill(true, first, last + 1);
    }
  }
  if (!masked.includes(true)) return run;

  // Consecutive masked groups (and the separators between them) become one mask.
  let out = '';
  let cursor = 0;
  for (let index = 0; index < groups.length; index += 1) {
    if (!masked[index]) continue;
    let last = index;
    while (last + 1 < groups.length && masked[last + 1]) last += 1;
    out += run.slice(cursor, groups[index]!.start) + CARD_NUMBER_MASK;
    cursor = groups[last]!.end;
    index = last;
  }
  return out + run.slice(cursor);
}

/**
 * Scrubs every string in a parsed JSON value (objects and arrays, at most `maxDepth` deep),
 * except the values of `exemptKeys`: fields that hold a card number, a CVV or a secret on
 * purpose and are handled by their own code. Returns a new value; the input is not changed.
 */
export function scrubCardNumbersDeep(value: unknown, exemptKeys: ReadonlySet<string> = new Set(), maxDepth = 64): unknown {
  if (typeof value === 'string') return scrubCardNumbers(value);
  if (value === null || typeof value !== 'object' || maxDepth <= 0) return value;
  if (Array.isArray(value)) return value.map((item) => scrubCardNumbersDeep(item, exemptKeys, maxDepth - 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = exemptKeys.has(key) ? item : scrubCardNumbersDeep(item, exemptKeys, maxDepth - 1);
  }
  return out;
}
