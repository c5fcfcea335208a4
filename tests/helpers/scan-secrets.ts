// Looks for card secrets where none may be (docs/rules.md#never-logged; PCI DSS 3.3–3.5): full card numbers
// (Luhn-valid runs of 13–19 digits, also when written with spaces or dashes) that are one of the
// numbers a flow used, and CVV values under a CVV-like name (or in a CVV-like column). It scans
// every text, varchar, json and jsonb column of every table (the outbox included) and any text
// given to it, such as logs. With `unknownCardLike` it also reports any standalone Luhn-valid
// number with a card network's prefix, known or not (the end-to-end scan, tests/e2e-scan).
import { listTables, queryRows } from './db-snapshot';
import type { Db } from '../../src/server/db/client';

export type SecretFinding = { where: string; kind: 'card_number' | 'card_like' | 'cvv'; excerpt: string };

export type SecretScanInput = {
  /** Full numbers that must appear nowhere (source cards, BNPL one-time cards, revealed virtual cards). */
  cardNumbers: readonly string[];
  /** Extra texts to scan, e.g. the captured logs. */
  texts?: ReadonlyArray<{ where: string; text: string }>;
  /** Also report unknown card-like numbers (see `cardLikeNumbers`). */
  unknownCardLike?: boolean;
};

// Runs of 13 or more digits, also in groups as people and forms write them (4242 4242 ..., 4242-4242-...).
const DIGIT_RUN = /\d(?:[ -]?\d){12,}/g;
// A CVV-like name followed by a value of 3 or 4 digits (JSON, key=value, or a SQL-ish dump).
const CVV_FIELD = /["']?\b(cvv2?|cvc2?|csc|card_?cvv|security_?code|securityCode)\b["']?\s*[:=]\s*["']?(\d{3,4})\b/gi;

// A whole standalone digit run (not part of a longer word, id or number), 13–19 digits, in the
// groupings people and forms use: no separators, or one kind of separator between groups.
const STANDALONE_RUN = /(?<![\w.-])\d(?:[ -]?\d){12,18}(?![\w-]|\.\d)/g;
// Issuer prefixes of the card networks (Visa, Mastercard, Amex, Discover, JCB, Diners, UnionPay,
// Maestro). Keeps millisecond timestamps (1…) and other large counters out of the unknown check.
const NETWORK_PREFIX = /^(4|5[0-9]|2[2-7]|3[0-9]|6[0-9])/;
const CVV_COLUMN = /^(cvv2?|cvc2?|csc|card_?cvv|security_?code)$/i;

export function luhnValid(digits: string): boolean {
  if (!/^\d{13,19}$/.test(digits)) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Findings in one text. A digit run counts when it, or a 13–19 digit window of it, is a known number. */
export function scanText(where: string, text: string, cardNumbers: readonly string[]): SecretFinding[] {
  const known = new Set(cardNumbers.map((number) => number.replace(/\D/g, '')));
  const findings: SecretFinding[] = [];
  for (const match of text.matchAll(DIGIT_RUN)) {
    const digits = match[0].replace(/\D/g, '');
    // A longer run may embed a card number (e.g. glued to a timestamp): try every window.
    let hit: string | undefined;
    for (let length = 13; length <= Math.min(19, digits.length) && !hit; length += 1) {
      for (let start = 0; start + length <= digits.length && !hit; start += 1) {
        const window = digits.slice(start, start + length);
        if (known.has(window) && luhnValid(window)) hit = window;
      }
    }
    if (hit) findings.push({ where, kind: 'card_number', excerpt: excerptAround(text, match.index ?? 0, match[0].length) });
  }
  for (const match of text.matchAll(CVV_FIELD)) {
    findings.push({ where, kind: 'cvv', excerpt: excerptAround(text, match.index ?? 0, match[0].length) });
  }
  return findings;
}

/**
 * Card numbers written in `text`: every whole digit run of 13–19 digits (spaces and dashes
 * allowed) that passes Luhn and is not a run of one repeated digit. For collecting the numbers a
 * test suite types from its sources.
 */
export function cardNumbersIn(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(DIGIT_RUN)) {
    const digits = match[0].replace(/\D/g, '');
    if (luhnValid(digits) && !/^(\d)\1+$/.test(digits)) found.add(digits);
  }
  return [...found];
}

/** Standalone, Luhn-valid 13–19 digit numbers with a card network's prefix, whether known or not. */
export function cardLikeNumbers(text: string): Array<{ index: number; length: number; digits: string }> {
  const found: Array<{ index: number; length: number; digits: string }> = [];
  for (const match of text.matchAll(STANDALONE_RUN)) {
    const digits = match[0].replace(/\D/g, '');
    if (NETWORK_PREFIX.test(digits) && luhnValid(digits) && !/^(\d)\1+$/.test(digits)) found.push({ index: match.index ?? 0, length: match[0].length, digits });
  }
  return found;
}

function unknownCardLikeFindings(where: string, text: string, known: ReadonlySet<string>): SecretFinding[] {
  return cardLikeNumbers(text)
    .filter((candidate) => !known.has(candidate.digits))
    .map((candidate) => ({ where, kind: 'card_like' as const, excerpt: excerptAround(text, candidate.index, candidate.length) }));
}

function excerptAround(text: string, index: number, length: number): string {
  return text.slice(Math.max(0, index - 40), index + length + 40).replace(/\s+/g, ' ');
}

/** Every text-like column of every table in schema public. */
export async function textColumns(db: Db): Promise<Array<{ table: string; column: string }>> {
  const tables = new Set(await listTables(db));
  const rows = await queryRows<{ table_name: string; column_name: string }>(
    db,
    "select table_name, column_name from information_schema.columns where table_schema = 'public' and data_type in ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY') order by table_name, ordinal_position",
  );
  return rows.filter((row) => tables.has(row.table_name)).map((row) => ({ table: row.table_name, column: row.column_name }));
}

export async function scanDatabaseAndTexts(db: Db, input: SecretScanInput): Promise<{ findings: SecretFinding[]; columnsScanned: number; rowsScanned: number }> {
  const findings: SecretFinding[] = [];
  const known = new Set(input.cardNumbers.map((number) => number.replace(/\D/g, '')));
  const scan = (where: string, text: string) => {
    findings.push(...scanText(where, text, input.cardNumbers));
    if (input.unknownCardLike) findings.push(...unknownCardLikeFindings(where, text, known));
  };
  const columns = await textColumns(db);
  let rowsScanned = 0;
  for (const { table, column } of columns) {
    const rows = await queryRows<{ v: string | null }>(db, `select "${column}"::text as v from "${table}" where "${column}" is not null`);
    rowsScanned += rows.length;
    for (const row of rows) {
      if (!row.v) continue;
      scan(`${table}.${column}`, row.v);
      // A column named like a CVV must never hold one in clear (encrypted values are not digits).
      if (CVV_COLUMN.test(column) && /^\s*\d{3,4}\s*$/.test(row.v)) findings.push({ where: `${table}.${column}`, kind: 'cvv', excerpt: '(column value)' });
    }
  }
  for (const { where, text } of input.texts ?? []) scan(where, text);
  return { findings, columnsScanned: columns.length, rowsScanned };
}
