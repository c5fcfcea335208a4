// A PayWeave backup file (docs/operations.md#backups, docs/decisions/182-logical-backups-of-the-embedded-database.md):
// gzip of a text file that reads like pg_dump's data section. A header line with the format, the
// time, the migrations the data was written under and the demo card key; then, per table,
// `COPY "table" ("col", ...) FROM stdin;`, its rows in PostgreSQL's COPY text format, and `\.`.
// A row can never be `\.` itself (COPY escapes a backslash as `\\`), so lines are enough to frame it.

export const BACKUP_FORMAT = 'payweave-backup';
export const BACKUP_VERSION = 1;

export type BackupHeader = {
  format: typeof BACKUP_FORMAT;
  version: typeof BACKUP_VERSION;
  createdAt: string;
  /** Drizzle's applied migrations (created_at = the journal's `when`), oldest first. */
  migrations: { hash: string; createdAt: number }[];
  /** Each sequence's last value when the snapshot was taken. */
  sequences: { name: string; lastValue: string | null }[];
  /** The demo card key of DATA_DIR (hex), without which restored card numbers cannot be read. */
  cardDataKey: string | null;
};

export const HEADER_PREFIX = '-- payweave-backup ';
export const END_OF_DATA = '\\.';

export function headerLine(header: BackupHeader): string {
  return `${HEADER_PREFIX}${JSON.stringify(header)}\n`;
}

export function parseHeader(line: string): BackupHeader {
  if (!line.startsWith(HEADER_PREFIX)) throw new Error('This is not a PayWeave backup file (no payweave-backup header).');
  const header = JSON.parse(line.slice(HEADER_PREFIX.length)) as BackupHeader;
  if (header.format !== BACKUP_FORMAT || header.version !== BACKUP_VERSION) {
    throw new Error(`This backup is in format ${header.format} ${header.version}; this PayWeave reads ${BACKUP_FORMAT} ${BACKUP_VERSION}.`);
  }
  return header;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

export function copyLine(table: string, columns: string[]): string {
  return `COPY ${quote(table)} (${columns.map(quote).join(', ')}) FROM stdin;`;
}

/** The table and the SQL of a `COPY ... FROM stdin;` line. */
export function parseCopyLine(line: string): { table: string; sql: string } | undefined {
  const match = /^COPY ("(?:[^"]|"")+") \((.*)\) FROM stdin;$/.exec(line);
  if (!match) return undefined;
  return { table: match[1]!.slice(1, -1).replace(/""/g, '"'), sql: line.slice(0, -';'.length) };
}

export { quote as quoteIdentifier };
