// Looks for card secrets where none may be (DECISIONS §4, §6; PCI DSS 3.3–3.5): full card numbers
// (Luhn-valid runs of 13–19 digits, also when written with spaces or dashes) that are one of the
// numbers a flow used, and CVV values under a CVV-like name. It scans every text, varchar, json
// and jsonb column of every table (the outbox included) and any text given to it, such as logs.
import { listTables, queryRows } from './db-snapshot';
import type { Db } from '../../src/server/db/client';

export type SecretFinding = { where: string; kind: 'card_number' | 'cvv'; excerpt: string };

export type SecretScanInput = {
  /** Full numbers that must appear nowhere (source cards, BNPL one-time cards, revealed virtual cards). */
  cardNumbers: readonly string[];
  /** Extra texts to scan, e.g. the captured logs. */
  texts?: ReadonlyArray<{ where: string; text: string }>;
};

// Runs of 13 or more digits, also in groups as people and forms write them (4242 4242 ..., 4242-4242-...).
const DIGIT_RUN = /\d(?:[ -]?\d){12,}/g;
// A CVV-like name followed by a value of 3 or 4 digits (JSON, key=value, or a SQL-ish dump).
const CVV_FIELD = /["']?\b(cvv2?|cvc2?|csc|card_?cvv|security_?code|securityCode)\b["']?\s*[:=]\s*["']?(\d{3,4})\b/gi;

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
  const columns = await textColumns(db);
  let rowsScanned = 0;
  for (const { table, column } of columns) {
    const rows = await queryRows<{ v: string | null }>(db, `select "${column}"::text as v from "${table}" where "${column}" is not null`);
    rowsScanned += rows.length;
    for (const row of rows) if (row.v) findings.push(...scanText(`${table}.${column}`, row.v, input.cardNumbers));
  }
  for (const { where, text } of input.texts ?? []) findings.push(...scanText(where, text, input.cardNumbers));
  return { findings, columnsScanned: columns.length, rowsScanned };
}
