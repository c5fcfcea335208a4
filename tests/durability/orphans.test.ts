// The ledger check names orphan rows (src/server/ledger/check-ledger.ts, REFERENCES): rows written
// past the foreign keys (`session_replication_role = replica`, as a restore or a replica writes)
// or where no foreign key holds the reference, each kind with its ids. On data the API wrote it
// finds nothing; the list of references agrees with the foreign keys the migrations made.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger, REFERENCES } from '../../src/server/ledger/check-ledger';
import { projectRoot } from '../../src/server/lib/paths';
import { cleanUp, freshDir, fundedCard, removeServerBundle, sendCashout, serverBundle, signUp, startApp, withDatabase, type App, type Attempt } from './harness';

function ledgerCheck(dataDir: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', 'ledger:check'], { cwd: projectRoot, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('exit', (code) => resolve({ code, output: output.trim() }));
  });
}

describe('orphan rows', () => {
  let dataDir: string;
  let app: App | undefined;
  beforeAll(async () => {
    dataDir = freshDir('orphans');
    await serverBundle();
  });
  afterAll(async () => {
    await cleanUp(dataDir, [app]);
    removeServerBundle();
  });

  it('the ledger check names each kind with its ids, and none on what the API wrote', async () => {
    app = await startApp(dataDir);
    const user = await signUp(app.url, 'orphans');
    const { cardId } = await fundedCard(app.url, user, 50);
    for (let i = 0; i < 3; i += 1) {
      const attempt: Attempt = { key: randomUUID(), user, cardId };
      expect((await sendCashout(app.url, attempt)).status).toBe(201);
    }

    await withDatabase(dataDir, async (db, pool) => {
      // The list says which references a foreign key holds: it agrees with the database.
      const { rows: keys } = await pool.query<{ child: string; column: string; parent: string }>(
        `select c.conrelid::regclass::text as child, a.attname as column, c.confrelid::regclass::text as parent
           from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
          where c.contype = 'f' and c.connamespace = 'public'::regnamespace`,
      );
      const held = new Set(keys.map((key) => `${key.child}.${key.column} → ${key.parent}`));
      for (const reference of REFERENCES) expect(held.has(`${reference.table}.${reference.column} → ${reference.parent}`), `${reference.table}.${reference.column}`).toBe(reference.foreignKey);
      for (const key of held) expect(REFERENCES.some((r) => `${r.table}.${r.column} → ${r.parent}` === key), `${key} is not in REFERENCES`).toBe(true);

      expect((await checkLedger(db)).problems).toEqual([]);

      // Orphans, written past the foreign keys as a replica's or a restore's session does.
      const client = await pool.connect();
      const missingJournal = randomUUID();
      const missingUser = randomUUID();
      const missingCard = randomUUID();
      try {
        await client.query('begin');
        await client.query("set local session_replication_role = 'replica'");
        const accounts = (await client.query<{ id: string }>("select id from ledger_accounts where kind <> 'card' order by code limit 2")).rows.map((row) => row.id);
        const entries = (
          await client.query<{ id: string }>('insert into journal_entries (journal_id, account_id, amount_cents) values ($1, $2, 5), ($1, $2, 5), ($1, $3, -10) returning id::text', [
            missingJournal,
            accounts[0],
            accounts[1],
          ])
        ).rows.map((row) => row.id);
        const transaction = (
          await client.query<{ id: string }>(
            "insert into transactions (user_id, card_id, type, amount_cents, net_amount_cents) values ($1, $2, 'purchase', 100, 100) returning id::text",
            [user.userId, missingCard],
          )
        ).rows[0]!.id;
        const keys = ['orphan-key-a', 'orphan-key-b'];
        for (const key of keys) {
          await client.query("insert into idempotency_keys (user_id, key, fingerprint, response_status, response_body) values ($1, $2, 'x', 201, '{}')", [missingUser, key]);
        }
        const session = (
          await client.query<{ id: string }>("insert into sessions (user_id, token_hash, expires_at) values ($1, $2, now() + interval '1 day') returning id::text", [missingUser, randomUUID()])
        ).rows[0]!.id;
        const effect = `payout:orphan-${randomUUID()}`;
        await client.query("insert into money_effects (kind, reference, user_id, payload) values ('payout', $1, $2, '{}')", [effect, missingUser]);
        await client.query('commit');

        const expected = [
          `3 journal entries without a journal: ${[...entries].sort().join(', ')}`,
          `1 transaction of a missing card: ${transaction}`,
          `1 money effect of a missing user: ${effect}`,
          `2 idempotency keys of a missing user: ${keys.map((key) => `${missingUser} ${key}`).join(', ')}`,
          `1 session of a missing user: ${session}`,
        ];
        const report = await checkLedger(db);
        expect(report.ok).toBe(false);
        expect(report.problems).toEqual(expected);

        const cli = await ledgerCheck(dataDir);
        expect(cli.code, cli.output).toBe(1);
        for (const line of expected) expect(cli.output).toContain(`  ${line}`);
        console.info(`durability (orphans): ${REFERENCES.length} references checked (${REFERENCES.filter((r) => !r.foreignKey).length} without a foreign key); none on the API's data; written past the foreign keys, npm run ledger:check says:\n${cli.output}`);
      } finally {
        await client.query('rollback').catch(() => {});
        client.release();
      }
    });
  });
});
