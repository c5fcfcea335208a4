// The end-to-end secret scan: after the whole Playwright run, every table of the
// e2e server's database (the outbox included) and everything the server printed must hold no
// card secret in clear:
//  - no source card number the e2e tests typed (every Luhn-valid 13–19 digit number in tests/e2e,
//    plus the demo test cards), however it is grouped (spaces, dashes);
//  - no number of a PayWeave virtual card issued during the run (decrypted here with the run's
//    card key: they are stored encrypted and shown only by the reveal);
//  - no other standalone Luhn-valid number with a card network's prefix;
//  - no CVV under a CVV-like name or in a CVV-like column.
// Findings name the table.column or log line and the kind, never the value.
//
//   tsx tests/e2e-scan/scan.ts <e2e data dir>      (scripts/e2e.mjs runs it after Playwright)
//
// The scan opens the e2e server's embedded PostgreSQL (DATA_DIR/postgres) as a client: the server
// has stopped it, so it is started for the scan and stopped after (embedded-server.ts).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { DECLINE_TEST_CARD } from '../../src/core/cards';
import { openDatabase } from '../../src/server/db/client';
import { embeddedPaths } from '../../src/server/db/embedded-postgres';
import { withEmbeddedDatabase } from '../../src/server/db/embedded-server';
import { decryptCardSecret } from '../../src/server/lib/card-crypto';
import { projectRoot } from '../../src/server/lib/paths';
import { queryRows } from '../helpers/db-snapshot';
import { cardLikeNumbers, cardNumbersIn, luhnValid, scanDatabaseAndTexts, scanText, type SecretFinding } from '../helpers/scan-secrets';

export const SERVER_LOG_NAME = 'server.log';
/** Cards every demo flow may use, whether or not a spec spells them out. */
const DEMO_TEST_CARDS = ['4242424242424242', '5555555555554444', '4111111111111111', DECLINE_TEST_CARD];

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : /\.(ts|tsx|js|mjs|json)$/.test(name) ? [full] : [];
  });
}

/** The source card numbers the e2e suite types: every Luhn-valid number written in tests/e2e. */
export function typedCardNumbers(e2eDir = path.join(projectRoot, 'tests', 'e2e')): string[] {
  const numbers = new Set(DEMO_TEST_CARDS);
  for (const file of filesUnder(e2eDir)) for (const number of cardNumbersIn(readFileSync(file, 'utf8'))) numbers.add(number);
  return [...numbers];
}

function cardDataKey(dataDir: string): Buffer | undefined {
  const hex = process.env.CARD_DATA_KEY ?? (existsSync(path.join(dataDir, 'card-data.key')) ? readFileSync(path.join(dataDir, 'card-data.key'), 'utf8').trim() : '');
  return /^[0-9a-fA-F]{64}$/.test(hex) ? Buffer.from(hex, 'hex') : undefined;
}

export type E2eScanReport = {
  findings: Array<Pick<SecretFinding, 'where' | 'kind'>>;
  problems: string[];
  stats: { tables: number; columns: number; rows: number; outboxMessages: number; cards: number; logLines: number; knownNumbers: number };
};

export async function scanE2eDataDir(dataDir: string): Promise<E2eScanReport> {
  const problems: string[] = [];
  const logFile = path.join(dataDir, SERVER_LOG_NAME);
  const { clusterDir } = embeddedPaths(dataDir);
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) throw new Error(`no e2e database in ${dataDir} (expected ${clusterDir})`);
  const logText = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
  const logLines = logText.split('\n');
  if (!existsSync(logFile)) problems.push(`the server's log ${logFile} is missing: its output was not captured`);
  else if (logText.trim().length === 0) problems.push(`the server's log ${logFile} is empty: its output was not captured`);

  const typed = typedCardNumbers();
  // The e2e server has stopped its PostgreSQL: started again for the scan, stopped after it.
  return withEmbeddedDatabase(dataDir, async (url) => {
    const database = await openDatabase({ databaseUrl: url, dataDir, poolSize: 2 });
    try {
      const db = database.db;
      // The virtual cards issued in the run, in clear, so that they too can be looked for.
      const issued = await queryRows<{ id: string; number_enc: string; cvv_enc: string }>(db, 'select id, number_enc, cvv_enc from cards');
      const virtualNumbers: string[] = [];
      const key = cardDataKey(dataDir);
      if (issued.length > 0 && !key) problems.push(`no card key (CARD_DATA_KEY or ${path.join(dataDir, 'card-data.key')}): the virtual card numbers cannot be checked`);
      if (key) {
        let unreadable = 0;
        for (const card of issued) {
          try {
            const number = decryptCardSecret(key, card.number_enc, card.id);
            if (!luhnValid(number)) unreadable += 1;
            else virtualNumbers.push(number);
          } catch {
            unreadable += 1;
          }
        }
        if (unreadable > 0) problems.push(`${unreadable} of ${issued.length} virtual card numbers do not decrypt with the run's card key`);
      }
      const known = [...new Set([...typed, ...virtualNumbers])];

      // The scanner must see what it is looking for (a guard against a broken pattern passing all).
      for (const number of known.slice(0, 50)) {
        const spaced = number.replace(/(\d{4})(?=\d)/g, '$1 ');
        if (scanText('self-test', `x ${spaced} y`, known).length !== 1 || cardLikeNumbers(`"${number}"`).length !== 1) {
          problems.push('self-test: the scanner does not find a known number');
          break;
        }
      }

      const result = await scanDatabaseAndTexts(db, {
        cardNumbers: known,
        texts: logLines.map((line, index) => ({ where: `${SERVER_LOG_NAME}:${index + 1}`, text: line })),
        unknownCardLike: true,
      });
      const [outbox] = await queryRows<{ n: number }>(db, 'select count(*)::int as n from outbox');
      const tables = await queryRows<{ n: number }>(db, "select count(*)::int as n from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'");
      if (result.columnsScanned === 0) problems.push('no text columns found: the scan saw no tables');
      return {
        findings: result.findings.map(({ where, kind }) => ({ where, kind })),
        problems,
        stats: {
          tables: tables[0]?.n ?? 0,
          columns: result.columnsScanned,
          rows: result.rowsScanned,
          outboxMessages: outbox?.n ?? 0,
          cards: issued.length,
          logLines: logText.trim().length === 0 ? 0 : logLines.filter((line) => line.trim()).length,
          knownNumbers: known.length,
        },
      };
    } finally {
      await database.close();
    }
  });
}

const KIND_LABEL: Record<SecretFinding['kind'], string> = {
  card_number: 'a card number used in the run',
  card_like: 'an unknown card-like number (Luhn-valid, network prefix)',
  cvv: 'a CVV',
};

async function main() {
  const dataDir = process.argv[2];
  if (!dataDir) {
    console.error('usage: tsx tests/e2e-scan/scan.ts <e2e data dir>');
    process.exit(2);
  }
  const report = await scanE2eDataDir(path.resolve(dataDir));
  const { stats } = report;
  console.log(
    `secret scan: ${stats.tables} tables (${stats.columns} text columns, ${stats.rows} values; outbox ${stats.outboxMessages} messages), ` +
      `${stats.logLines} log lines; looked for ${stats.knownNumbers} card numbers (typed in tests/e2e and the ${stats.cards} virtual cards issued), any card-like number and CVVs`,
  );
  // Where and what, never the value: grouped by place and kind.
  const grouped = new Map<string, number>();
  for (const finding of report.findings) {
    const label = `${finding.where}: ${KIND_LABEL[finding.kind]}`;
    grouped.set(label, (grouped.get(label) ?? 0) + 1);
  }
  for (const problem of report.problems) console.error(`secret scan: ${problem}`);
  if (grouped.size > 0) {
    console.error(`secret scan FAILED: ${report.findings.length} findings`);
    for (const [label, count] of [...grouped].slice(0, 200)) console.error(`  ${label}${count > 1 ? ` (${count} times)` : ''}`);
  }
  if (grouped.size > 0 || report.problems.length > 0) {
    process.exitCode = 1;
    return;
  }
  console.log('secret scan ok: no card number, card-like number or CVV in any table, the outbox or the logs');
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().catch((error: unknown) => {
    console.error(`secret scan could not run: ${(error as Error).message}`);
    process.exit(1);
  });
}
