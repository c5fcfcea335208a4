// The backup drill (docs/decisions/182-logical-backups-of-the-embedded-database.md): `npm run
// backup` while 8 clients cash out, then a kill -9 of the app, then `npm run restore FILE` into an
// empty DATA_DIR and the app started on it. The copy is one moment of the database: every cash-out
// acknowledged before the backup began is in it, nothing in it is unknown to the original, each
// card's balance agrees with the cash-outs the copy holds, and the ledger check (orphans included:
// the restore writes past the foreign keys) holds. The restored app serves the same users, their
// sessions and their idempotency keys. A restore into a DATA_DIR that holds a database is refused.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../src/server/ledger/check-ledger';
import { projectRoot } from '../../src/server/lib/paths';
import {
  acknowledged,
  burst,
  cashoutIdOf,
  cleanUp,
  count,
  freshDir,
  fundedCard,
  postmasterPid,
  removeServerBundle,
  retryUnacknowledged,
  sendCashout,
  serverBundle,
  signUp,
  startApp,
  waitFor,
  withDatabase,
  type App,
  type Attempt,
  type Lane,
} from './harness';

/** `npm run <script> [args]` with DATA_DIR: its exit code, output and time. */
function npmRun(script: string, args: string[], dataDir: string): Promise<{ code: number | null; output: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script, ...(args.length > 0 ? ['--', ...args] : [])], {
      cwd: projectRoot,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('exit', (code) => resolve({ code, output: output.trim(), ms: Date.now() - started }));
  });
}

async function cashoutIds(dataDir: string, userIds: string[]): Promise<Set<string>> {
  return withDatabase(dataDir, async (_db, pool) => {
    const { rows } = await pool.query<{ id: string }>("select id::text from transactions where type = 'cashout' and user_id = any($1::uuid[])", [userIds]);
    return new Set(rows.map((row) => row.id));
  });
}

describe('backup under load, restore into an empty DATA_DIR', () => {
  let dataDir: string;
  let restoredDir: string;
  let backupFile: string;
  let app: App | undefined;
  let restored: App | undefined;
  beforeAll(async () => {
    dataDir = freshDir('backup');
    restoredDir = freshDir('restored');
    rmSync(restoredDir, { recursive: true });
    backupFile = `${dataDir}-drill.backup.gz`;
    await serverBundle();
  });
  afterAll(async () => {
    await cleanUp(dataDir, [app]);
    await cleanUp(restoredDir, [restored]);
    rmSync(backupFile, { force: true });
    removeServerBundle();
  });

  it('the copy is one consistent moment, and the restored app serves it', async () => {
    app = await startApp(dataDir);
    const port = app.port;
    const lanes: Array<Lane & { startCents: number }> = [];
    for (let i = 0; i < 2; i += 1) {
      const user = await signUp(app.url, `backup-${i}`);
      lanes.push({ user, ...(await fundedCard(app.url, user, 300)) });
    }
    const userIds = lanes.map((lane) => lane.user.userId);
    const attempts: Attempt[] = [];
    let stop = false;
    const current = app;
    const running = burst({ url: () => current.url, lanes, clients: 8, stop: () => stop, attempts });
    let backup: Awaited<ReturnType<typeof npmRun>>;
    let beforeBackup: Attempt[];
    let afterBackup: Attempt[];
    try {
      await waitFor('cash-outs before the backup', () => attempts.filter(acknowledged).length >= 50);
      beforeBackup = attempts.filter(acknowledged);
      backup = await npmRun('backup', [backupFile], dataDir);
      afterBackup = attempts.filter(acknowledged);
      expect(backup.code, backup.output).toBe(0);
      await waitFor('cash-outs after the backup', () => attempts.filter(acknowledged).length >= afterBackup.length + 30);
      await current.kill();
    } finally {
      stop = true;
      await running;
    }
    expect(backup.output).toMatch(/^backup written: /);
    expect(statSync(backupFile).mode & 0o777).toBe(0o600);

    // The original, restarted: every unanswered request retried; the full count.
    app = await startApp(dataDir, { port });
    await retryUnacknowledged(app.url, attempts);
    const original = await count(dataDir, lanes, attempts);
    expect(original.lost).toEqual([]);
    expect(original.duplicated).toEqual([]);
    expect(original.problems).toEqual([]);
    const originalIds = await cashoutIds(dataDir, userIds);

    // Restore into a DATA_DIR that holds a database: refused, nothing changed.
    const postmaster = postmasterPid(dataDir);
    const refused = await npmRun('restore', [backupFile], dataDir);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('already holds a PayWeave database');
    expect(postmasterPid(dataDir)).toBe(postmaster);

    // Restore into an empty DATA_DIR; the ledger check on it with no app (started for the check).
    const restore = await npmRun('restore', [backupFile], restoredDir);
    expect(restore.code, restore.output).toBe(0);
    const check = await npmRun('ledger:check', [], restoredDir);
    expect(check.code, check.output).toBe(0);
    expect(postmasterPid(restoredDir)).toBeUndefined();

    restored = await startApp(restoredDir);
    const copyIds = await cashoutIds(restoredDir, userIds);
    // One moment: all acknowledged before the backup began are in it; none it holds is unknown.
    const missing = beforeBackup.map((a) => cashoutIdOf(a.first)!).filter((id) => !copyIds.has(id));
    expect(missing).toEqual([]);
    expect([...copyIds].filter((id) => !originalIds.has(id))).toEqual([]);
    expect(copyIds.size).toBeLessThanOrEqual(afterBackup.length + 8);
    // And no gap: a cash-out acknowledged before another was sent is in the copy if that one is.
    const latestSentInCopy = Math.max(...attempts.filter((a) => copyIds.has(cashoutIdOf(a.first) ?? '')).map((a) => a.sentAt ?? 0));
    const gaps = attempts.filter(acknowledged).filter((a) => a.answeredAt! < latestSentInCopy && !copyIds.has(cashoutIdOf(a.first)!));
    expect(gaps.map((a) => a.key)).toEqual([]);
    const report = await withDatabase(restoredDir, async (db, pool) => {
      for (const lane of lanes) {
        const { rows } = await pool.query<{ remaining: string; cashouts: number }>(
          "select c.remaining_amount_cents::text as remaining, (select count(*)::int from transactions t where t.card_id = c.id and t.type = 'cashout') as cashouts from cards c where c.id = $1",
          [lane.cardId],
        );
        expect(Number(rows[0]!.remaining)).toBe(lane.startCents - 2 * rows[0]!.cashouts);
      }
      return checkLedger(db);
    });
    expect(report.problems).toEqual([]);

    // The restored app serves the same users: their session cookie, their cards, their keys.
    const [lane] = lanes;
    const cards = await lane!.user.request(restored.url, 'GET', '/api/cards');
    expect(cards.status).toBe(200);
    const replayed = beforeBackup.find((a) => a.user === lane!.user)!;
    const again = await sendCashout(restored.url, replayed);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(cashoutIdOf(again)).toBe(cashoutIdOf(replayed.first));
    const fresh = await sendCashout(restored.url, { key: randomUUID(), user: lane!.user, cardId: lane!.cardId });
    expect(fresh.status, fresh.text).toBe(201);
    expect(existsSync(path.join(restoredDir, 'postgres'))).toBe(true);

    console.info(
      `durability (backup drill, 8 clients): npm run backup under load in ${backup.ms} ms (${backup.output.replace(/^backup written: \S+ /, '')}); ` +
        `${beforeBackup.length} cash-outs acknowledged before it began, ${afterBackup.length} by its end, ${attempts.filter(acknowledged).length} before the kill -9; ` +
        `the original after restart and retries: ${originalIds.size} cash-outs, 0 lost, 0 duplicated. Restore into a used DATA_DIR refused; into an empty one in ${restore.ms} ms; ` +
        `the copy holds ${copyIds.size} cash-outs (every one acknowledged before the backup, none unknown to the original), balances agree, ledger:check ok (orphans included); ` +
        `the restored app serves the same session, replays a key (same cash-out) and takes a new cash-out`,
    );
  });
});
