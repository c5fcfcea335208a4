// A throwaway high-availability PostgreSQL cluster for `npm run test:ha` (decision 065): three
// PostgreSQL 15 nodes managed by Patroni, etcd as Patroni's store, and HAProxy in front sending
// every connection to whichever node is the primary now. Everything listens on loopback on free
// ports (never 5432: the suites' own server stays untouched) and lives in one temporary folder
// that `stop()` removes. Needs Debian's patroni, etcd-server and haproxy (.ci/run installs them).
//
// Patroni refuses to run as root, and PostgreSQL must run as `postgres`: every process of the
// cluster is started through `setpriv` as that user. (`runuser` would kill its child on SIGTERM
// and leave PostgreSQL orphaned.) Each one starts in the cluster's folder, never in the checkout:
// a checkout in a private (0700) directory cannot be entered by postgres, and HAProxy, initdb and
// pg_ctl stop when they cannot get back to their working directory (decision 180). Nothing the
// cluster uses (configs, data, logs, the pgBackRest repository) lives under the checkout.
//
// With `archive: true`, the nodes archive their WAL with pgBackRest (decision 180): one
// pgbackrest.conf per node, as on three hosts, sharing one repository in the cluster's folder.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../helpers/server-process';

export const PG_BIN = '/usr/lib/postgresql/15/bin';
export const PGBACKREST = '/usr/bin/pgbackrest';
const REQUIRED = ['/usr/bin/patroni', '/usr/bin/patronictl', '/usr/bin/etcd', '/usr/sbin/haproxy', '/usr/bin/setpriv', `${PG_BIN}/postgres`, `${PG_BIN}/pg_rewind`];
const SCOPE = 'payweave-ha';
/** pgBackRest's stanza: the cluster as its repository knows it. */
export const STANZA = 'payweave';

/** Patroni's timings. ttl ≥ loop_wait + 2 × retry_timeout, or Patroni may lose the leader key while healthy. */
export const PATRONI_TIMINGS = { ttl: 10, loop_wait: 1, retry_timeout: 4 } as const;

/** What is missing on this machine for the cluster, or [] when it can run. */
export function missingTools(options: { archive?: boolean } = {}): string[] {
  const missing = [...REQUIRED, ...(options.archive ? [PGBACKREST] : [])].filter((file) => !existsSync(file));
  if (spawnSync('id', ['-u', 'postgres']).status !== 0) missing.push('the postgres user');
  if (process.getuid?.() !== 0) missing.push('root (to start the cluster as postgres)');
  return missing;
}

export type Member = { name: string; role: 'leader' | 'sync_standby' | 'replica' | string; state: string; timeline?: number; lag?: number | string; port?: number };

type Node = { name: string; pgPort: number; restPort: number; dataDir: string; config: string; backrestConfig: string; log: string; patroni: ChildProcess | null };

/** A PostgreSQL started by hand from a data directory (a restored copy), outside Patroni. */
export type Standalone = { dataDir: string; port: number; log: string; child: ChildProcess; url(database?: string): string };

const POSTGRES_USER = { uid: 0, gid: 0 };

function postgresIds(): { uid: number; gid: number } {
  if (POSTGRES_USER.uid === 0) {
    POSTGRES_USER.uid = Number(spawnSync('id', ['-u', 'postgres']).stdout.toString().trim());
    POSTGRES_USER.gid = Number(spawnSync('id', ['-g', 'postgres']).stdout.toString().trim());
  }
  return POSTGRES_USER;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const AS_POSTGRES = ['--reuid=postgres', '--regid=postgres', '--init-groups'];

/** The environment of every process of the cluster: clean, with `home` as HOME. */
function postgresEnv(home: string): NodeJS.ProcessEnv {
  return { PATH: `${PG_BIN}:/usr/bin:/bin`, HOME: home, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' };
}

/**
 * A process of the cluster, run as postgres with a clean environment, its output in `log`, in
 * `cwd` (a folder of the cluster's: the checkout, the test's own working directory, may be one
 * postgres cannot enter).
 */
function startAsPostgres(command: string, args: string[], log: string, cwd: string): ChildProcess {
  const fd = openSync(log, 'a');
  const child = spawn('/usr/bin/setpriv', [...AS_POSTGRES, command, ...args], { cwd, stdio: ['ignore', fd, fd], env: postgresEnv(path.dirname(log)) });
  closeSync(fd);
  child.on('error', () => {});
  return child;
}

/** A command run as postgres in `cwd` to its end (or `timeoutMs`): its exit code and output. */
export function runAsPostgres(command: string, args: string[], cwd: string, timeoutMs = 120_000): Promise<{ code: number | null; output: string }> {
  const child = spawn('/usr/bin/setpriv', [...AS_POSTGRES, command, ...args], { cwd, env: postgresEnv(cwd), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) => {
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, output: `${output}${error.message}` });
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, output: signal ? `${output}(${signal})` : output });
    });
  });
}

/**
 * A new folder for the cluster, owned by postgres, in a place postgres can reach: the system's
 * temporary folder ($TMPDIR, or /tmp when $TMPDIR is somewhere postgres cannot enter, such as
 * inside a private checkout).
 */
function clusterFolder(): string {
  const { uid, gid } = postgresIds();
  const tried: string[] = [];
  for (const base of [...new Set([tmpdir(), '/tmp'])]) {
    const root = mkdtempSync(path.join(base, 'payweave-ha-'));
    chownSync(root, uid, gid);
    if (spawnSync('/usr/bin/setpriv', [...AS_POSTGRES, '/usr/bin/test', '-w', root, '-a', '-x', root], { cwd: root }).status === 0) return root;
    rmSync(root, { recursive: true, force: true });
    tried.push(base);
  }
  throw new Error(`the postgres user cannot enter a temporary folder (tried ${tried.join(', ')})`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export class PatroniCluster {
  readonly root: string;
  readonly nodes: Node[];
  readonly haproxyPort: number;
  private etcdPort = 0;
  private etcd: ChildProcess | null = null;
  private haproxy: ChildProcess | null = null;
  private readonly standalones: Standalone[] = [];
  private readonly exitGuard = () => this.killEverythingNow();

  private constructor(
    root: string,
    nodes: Node[],
    haproxyPort: number,
    etcdPort: number,
    readonly archive: boolean,
  ) {
    this.root = root;
    this.nodes = nodes;
    this.haproxyPort = haproxyPort;
    this.etcdPort = etcdPort;
  }

  /** pgBackRest's repository (with `archive: true`): WAL archive and backups, in the cluster's folder. */
  get repository(): string {
    return path.join(this.root, 'pgbackrest', 'repo');
  }

  /** The URL an application uses: through HAProxy, to the primary of the moment. */
  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.haproxyPort}/${database}`;
  }

  /** A direct URL to one node (for checks on a particular node). */
  nodeUrl(name: string, database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.node(name).pgPort}/${database}`;
  }

  node(name: string): Node {
    const node = this.nodes.find((n) => n.name === name);
    if (!node) throw new Error(`no node ${name}`);
    return node;
  }

  /** `archive`: the nodes archive their WAL to a pgBackRest repository (archive_mode on, archive-push). */
  static async start(options: { nodes?: number; archive?: boolean } = {}): Promise<PatroniCluster> {
    const root = clusterFolder();
    const ports = [];
    for (let i = 0; i < 3 + 2 * (options.nodes ?? 3); i += 1) ports.push(await freePort());
    const [etcdPort, etcdPeerPort, haproxyPort, ...nodePorts] = ports as [number, number, number, ...number[]];
    const nodes: Node[] = Array.from({ length: options.nodes ?? 3 }, (_, i) => ({
      name: `node${i + 1}`,
      pgPort: nodePorts[2 * i]!,
      restPort: nodePorts[2 * i + 1]!,
      dataDir: path.join(root, `node${i + 1}`, 'data'),
      config: path.join(root, `node${i + 1}`, 'patroni.yml'),
      backrestConfig: path.join(root, `node${i + 1}`, 'pgbackrest.conf'),
      log: path.join(root, `node${i + 1}`, 'patroni.log'),
      patroni: null,
    }));
    const cluster = new PatroniCluster(root, nodes, haproxyPort, etcdPort, options.archive ?? false);
    process.once('exit', cluster.exitGuard);
    try {
      cluster.writeConfigs(etcdPeerPort);
      cluster.etcd = startAsPostgres(
        '/usr/bin/etcd',
        [
          '--name=ha',
          `--data-dir=${path.join(root, 'etcd')}`,
          `--listen-client-urls=http://127.0.0.1:${etcdPort}`,
          `--advertise-client-urls=http://127.0.0.1:${etcdPort}`,
          `--listen-peer-urls=http://127.0.0.1:${etcdPeerPort}`,
          `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeerPort}`,
          `--initial-cluster=ha=http://127.0.0.1:${etcdPeerPort}`,
          '--initial-cluster-state=new',
          '--logger=zap',
          '--log-level=warn',
        ],
        path.join(root, 'etcd.log'),
        root,
      );
      await cluster.waitFor('etcd', 15_000, async () => (await fetch(`http://127.0.0.1:${etcdPort}/health`, { signal: AbortSignal.timeout(1_000) })).ok);
      cluster.haproxy = startAsPostgres('/usr/sbin/haproxy', ['-db', '-f', path.join(root, 'haproxy.cfg')], path.join(root, 'haproxy.log'), root);
      // The first node bootstraps alone (it wins the initialize key); the others then clone it.
      cluster.startNode('node1');
      await cluster.waitFor('a leader', 60_000, async () => (await cluster.members()).some((m) => m.role === 'leader' && m.state === 'running'));
      for (const node of nodes.slice(1)) cluster.startNode(node.name);
      await cluster.waitHealthy(90_000);
      return cluster;
    } catch (error) {
      const logs = cluster.logs();
      await cluster.stop();
      throw new Error(`${(error as Error).message}\n${logs}`);
    }
  }

  private writeConfigs(etcdPeerPort: number): void {
    void etcdPeerPort;
    const { uid, gid } = postgresIds();
    const run = path.join(this.root, 'run');
    mkdirSync(run);
    for (const node of this.nodes) {
      mkdirSync(path.dirname(node.dataDir));
      // JSON is YAML: Patroni reads this as its YAML configuration.
      const config = {
        scope: SCOPE,
        namespace: '/payweave/',
        name: node.name,
        restapi: { listen: `127.0.0.1:${node.restPort}`, connect_address: `127.0.0.1:${node.restPort}` },
        etcd3: { hosts: [`127.0.0.1:${this.etcdPort}`] },
        bootstrap: {
          dcs: {
            ...PATRONI_TIMINGS,
            maximum_lag_on_failover: 1_048_576,
            // An acknowledged commit is on two nodes; strict: even when no standby is there to take
            // it (writes wait instead of going ahead on one node), e.g. in the seconds after a failover.
            synchronous_mode: true,
            synchronous_mode_strict: true,
            // A dead postmaster fails over to the synchronous standby at once instead of being
            // restarted in place (the default waits 300 s for it to come back).
            primary_start_timeout: 0,
            postgresql: {
              use_pg_rewind: true,
              // No replication slots: Patroni 3.0 creates the members' slots on a new primary only in
              // its first loops after the promotion, and until then the synchronous standby cannot
              // attach, so strict mode holds every commit (measured: 3 s of the failover). The WAL a
              // replica or pg_rewind needs is kept by wal_keep_size instead (decision 065).
              use_slots: false,
              parameters: {
                wal_log_hints: 'on', // pg_rewind needs it (or data checksums)
                wal_retrieve_retry_interval: '1s', // a replica retries its primary every second, not every 5
                wal_keep_size: '256MB',
                max_connections: 100,
                max_wal_senders: 10,
                max_replication_slots: 10,
                hot_standby: 'on',
                shared_buffers: '32MB',
                // Only the primary archives (`on`, not `always`); each node's archive_command is
                // its own (below), since it names that node's pgbackrest.conf.
                ...(this.archive ? { archive_mode: 'on' } : {}),
              },
            },
          },
          initdb: [{ encoding: 'UTF8' }, { locale: 'C.UTF-8' }],
        },
        postgresql: {
          listen: `127.0.0.1:${node.pgPort}`,
          connect_address: `127.0.0.1:${node.pgPort}`,
          data_dir: node.dataDir,
          bin_dir: PG_BIN,
          pgpass: path.join(path.dirname(node.dataDir), 'pgpass'),
          authentication: {
            superuser: { username: 'postgres', password: 'postgres' },
            replication: { username: 'replicator', password: 'replicator' },
            rewind: { username: 'postgres', password: 'postgres' },
          },
          // Loopback only, and trust: the cluster lives for one test run on this machine.
          pg_hba: ['local all all trust', 'local replication all trust', 'host all all 127.0.0.1/32 trust', 'host replication all 127.0.0.1/32 trust'],
          parameters: {
            unix_socket_directories: run,
            ...(this.archive ? { archive_command: `${PGBACKREST} --config=${node.backrestConfig} --stanza=${STANZA} archive-push "%p"` } : {}),
          },
        },
        tags: { nofailover: false, noloadbalance: false, clonefrom: false, nosync: false },
      };
      writeFileSync(node.config, JSON.stringify(config, null, 2));
      writeFileSync(node.log, '');
      chownSync(path.dirname(node.dataDir), uid, gid);
      chownSync(node.config, uid, gid);
      chownSync(node.log, uid, gid);
      if (this.archive) {
        // As on its own host: the node's pgBackRest knows its own data directory as pg1 (archive-push
        // checks the WAL against it), and has its own logs and locks; the repository is shared.
        const nodeDir = path.dirname(node.dataDir);
        const backrest = [
          '[global]',
          `repo1-path=${this.repository}`,
          'repo1-retention-full=2',
          `log-path=${path.join(nodeDir, 'pgbackrest-log')}`,
          `lock-path=${path.join(nodeDir, 'pgbackrest-lock')}`,
          'log-level-console=warn',
          'log-level-stderr=warn',
          'log-level-file=info',
          'start-fast=y',
          'compress-type=lz4',
          'archive-timeout=30',
          '',
          `[${STANZA}]`,
          `pg1-path=${node.dataDir}`,
          `pg1-port=${node.pgPort}`,
          `pg1-socket-path=${run}`,
          '',
        ].join('\n');
        writeFileSync(node.backrestConfig, backrest);
        chownSync(node.backrestConfig, uid, gid);
      }
    }
    if (this.archive) {
      mkdirSync(this.repository, { recursive: true, mode: 0o750 });
      for (const dir of [path.dirname(this.repository), this.repository]) chownSync(dir, uid, gid);
    }
    // HAProxy asks each node's Patroni whether it is the primary (OPTIONS: a GET would make
    // Patroni log a traceback per check) twice a second, and cuts the connections to a node that
    // stops being it, so that no pooled connection lingers on a demoted or dead node.
    const haproxy = [
      'global',
      '  maxconn 200',
      'defaults',
      '  mode tcp',
      '  timeout connect 2s',
      '  timeout client 30m',
      '  timeout server 30m',
      '  timeout check 1s',
      'listen primary',
      `  bind 127.0.0.1:${this.haproxyPort}`,
      '  option httpchk OPTIONS /primary',
      '  http-check expect status 200',
      '  default-server inter 500ms fastinter 250ms downinter 500ms rise 1 fall 2 on-marked-down shutdown-sessions',
      ...this.nodes.map((n) => `  server ${n.name} 127.0.0.1:${n.pgPort} maxconn 100 check port ${n.restPort}`),
      '',
    ].join('\n');
    writeFileSync(path.join(this.root, 'haproxy.cfg'), haproxy);
    for (const file of ['etcd.log', 'haproxy.log']) writeFileSync(path.join(this.root, file), '');
    for (const file of [this.root, run, path.join(this.root, 'haproxy.cfg'), path.join(this.root, 'etcd.log'), path.join(this.root, 'haproxy.log')]) chownSync(file, uid, gid);
  }

  startNode(name: string): void {
    const node = this.node(name);
    if (node.patroni && node.patroni.exitCode === null && node.patroni.signalCode === null) throw new Error(`${name}'s Patroni is already running`);
    node.patroni = startAsPostgres('/usr/bin/patroni', [node.config], node.log, path.dirname(node.config));
  }

  /** The cluster as Patroni sees it, asked of the first node whose REST API answers. */
  async members(): Promise<Member[]> {
    for (const node of this.nodes) {
      try {
        const response = await fetch(`http://127.0.0.1:${node.restPort}/cluster`, { signal: AbortSignal.timeout(1_000) });
        if (response.ok) return ((await response.json()) as { members: Member[] }).members;
      } catch {
        // that node's Patroni is down; ask the next
      }
    }
    return [];
  }

  async leader(): Promise<string | undefined> {
    return (await this.members()).find((m) => m.role === 'leader' && m.state === 'running')?.name;
  }

  /**
   * Every node up, one leader, one synchronous standby, and every standby streaming from the
   * leader on the leader's timeline. A standby that Patroni calls "running" may still be in
   * recovery that needs WAL from a dead node (after a pg_rewind from the old leader), or
   * streaming on the old timeline for the moment before it sees the fork: killing the leader
   * then leaves no standby that can take commits, and strict synchronous mode holds every write
   * until Patroni gives up on it a minute later. So a next event waits for this.
   */
  async healthy(expectedNodes = this.nodes.length): Promise<boolean> {
    const members = await this.members();
    const leaders = members.filter((m) => m.role === 'leader' && m.state === 'running');
    const timeline = leaders[0]?.timeline;
    const standbys = members.filter((m) => m.role !== 'leader');
    if (
      !(
        members.length === expectedNodes &&
        leaders.length === 1 &&
        timeline !== undefined &&
        members.filter((m) => m.role === 'sync_standby').length === 1 &&
        members.every((m) => m.state === 'running') &&
        standbys.every((m) => m.timeline === timeline)
      )
    ) {
      return false;
    }
    // Patroni 3.0.2 says "running" of a standby whatever its replication does; the leader's own
    // pg_stat_replication says who streams from it.
    const client = new pg.Client({ connectionString: this.nodeUrl(leaders[0]!.name, 'postgres'), connectionTimeoutMillis: 1_000 });
    client.on('error', () => {});
    try {
      await client.connect();
      const { rows } = await client.query<{ name: string; sync: string }>("select application_name as name, sync_state as sync from pg_stat_replication where state = 'streaming'");
      return standbys.every((m) => rows.some((r) => r.name === m.name)) && rows.some((r) => r.sync === 'sync');
    } finally {
      await client.end().catch(() => {});
    }
  }

  async waitHealthy(timeoutMs: number): Promise<void> {
    // Twice in a row, a second apart: a standby can stream for a moment and then drop out to
    // rewind when it sees that the new leader's timeline forked before its own position.
    await this.waitFor('a healthy cluster (leader, sync standby, every standby streaming on its timeline)', timeoutMs, async () => {
      if (!(await this.healthy())) return false;
      await sleep(1_000);
      return this.healthy();
    });
    // HAProxy checks twice a second: wait until it sends connections to the leader.
    await this.waitFor('HAProxy to route to the primary', 10_000, async () => {
      const client = new pg.Client({ connectionString: this.url(), connectionTimeoutMillis: 1_000 });
      client.on('error', () => {});
      try {
        await client.connect();
        const { rows } = await client.query<{ r: boolean }>('select pg_is_in_recovery() as r');
        return rows[0]?.r === false;
      } finally {
        await client.end().catch(() => {});
      }
    });
  }

  async waitFor(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        if (await check()) return;
      } catch {
        // not yet
      }
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; members: ${JSON.stringify(await this.members())}`);
      await sleep(200);
    }
  }

  /** The postmaster's pid of a node, from its postmaster.pid (undefined when not running). */
  postmasterPid(name: string): number | undefined {
    try {
      const pid = Number(readFileSync(path.join(this.node(name).dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      return Number.isInteger(pid) && pid > 0 && alive(pid) ? pid : undefined;
    } catch {
      return undefined;
    }
  }

  /** kill -9 of a node's postmaster alone: its Patroni lives on and sees PostgreSQL gone. */
  killPostmaster(name: string): void {
    const pid = this.postmasterPid(name);
    if (!pid) throw new Error(`${name} has no running postmaster`);
    process.kill(pid, 'SIGKILL');
  }

  /** kill -9 of a node's Patroni and postmaster together: the node is gone, as in a machine's death. */
  killNode(name: string): void {
    const node = this.node(name);
    const pid = this.postmasterPid(name);
    if (node.patroni?.pid) process.kill(node.patroni.pid, 'SIGKILL');
    if (pid) process.kill(pid, 'SIGKILL');
  }

  /** A planned switchover with patronictl, to `candidate` (or the synchronous standby). */
  switchover(leader: string, candidate?: string): Promise<{ ok: boolean; output: string }> {
    const args = ['-c', this.node(leader).config, 'switchover', SCOPE, '--leader', leader, '--force'];
    if (candidate) args.push('--candidate', candidate);
    // Asynchronous: the clients keep streaming while patronictl waits for the switchover.
    return runAsPostgres('/usr/bin/patronictl', args, this.root).then(({ code, output }) => ({ ok: code === 0, output }));
  }

  /** `pgbackrest --stanza=payweave <args>` as postgres, with `node`'s configuration (as on that node's host). */
  async pgbackrest(node: string, args: string[], timeoutMs = 120_000): Promise<string> {
    const { code, output } = await runAsPostgres(PGBACKREST, [`--config=${this.node(node).backrestConfig}`, `--stanza=${STANZA}`, ...args], this.root, timeoutMs);
    if (code !== 0) throw new Error(`pgbackrest ${args.join(' ')} failed (${code}):\n${output}`);
    return output;
  }

  /** A new folder in the cluster's folder, owned by postgres, mode 0700 (e.g. for a restored data directory). */
  folder(relative: string): string {
    const { uid, gid } = postgresIds();
    let dir = this.root;
    for (const part of relative.split('/')) {
      dir = path.join(dir, part);
      mkdirSync(dir, { mode: 0o700 });
      chownSync(dir, uid, gid);
    }
    return dir;
  }

  /**
   * A PostgreSQL 15 on `dataDir` (a restored copy), as postgres, on a free loopback port, outside
   * Patroni and HAProxy. `settings` (-c) override its postgresql.conf, which is a node's: Patroni
   * writes the node's own paths for hba_file and ident_file into it, so those are pointed at the
   * copy's. Stopped by `stop()` with the cluster.
   */
  async startStandalone(dataDir: string, settings: Record<string, string> = {}): Promise<Standalone> {
    const port = await freePort();
    const log = path.join(path.dirname(dataDir), `postgres-${port}.log`);
    writeFileSync(log, '');
    const { uid, gid } = postgresIds();
    chownSync(log, uid, gid);
    const options = {
      port: String(port),
      listen_addresses: '127.0.0.1',
      unix_socket_directories: path.join(this.root, 'run'),
      hba_file: path.join(dataDir, 'pg_hba.conf'),
      ident_file: path.join(dataDir, 'pg_ident.conf'),
      ...settings,
    };
    const child = startAsPostgres(`${PG_BIN}/postgres`, ['-D', dataDir, ...Object.entries(options).flatMap(([k, v]) => ['-c', `${k}=${v}`])], log, path.dirname(dataDir));
    const standalone: Standalone = { dataDir, port, log, child, url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}` };
    this.standalones.push(standalone);
    return standalone;
  }

  /** The last lines of every log of the cluster, for a failure's message. */
  logs(lines = 30): string {
    const files = [...this.nodes.map((n) => n.log), path.join(this.root, 'etcd.log'), path.join(this.root, 'haproxy.log'), ...this.standalones.map((s) => s.log)];
    return files
      .map((file) => {
        try {
          return `--- ${path.relative(this.root, file)}\n${readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n')}`;
        } catch {
          return '';
        }
      })
      .join('\n');
  }

  nodeLog(name: string): string {
    try {
      return readFileSync(this.node(name).log, 'utf8');
    } catch {
      return '';
    }
  }

  /** Stops everything (Patroni stops its PostgreSQL), kills what does not stop, removes the folder. */
  async stop(): Promise<void> {
    const running = (child: ChildProcess | null) => child && child.exitCode === null && child.signalCode === null;
    // A standalone copy: fast shutdown (SIGINT).
    for (const standalone of this.standalones) if (running(standalone.child)) standalone.child.kill('SIGINT');
    for (const node of this.nodes) if (running(node.patroni)) node.patroni!.kill('SIGTERM');
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && (this.nodes.some((n) => running(n.patroni) || this.postmasterPid(n.name)) || this.standalones.some((s) => running(s.child)))) await sleep(200);
    this.killEverythingNow();
    for (const child of [this.haproxy, this.etcd]) if (running(child)) child!.kill('SIGTERM');
    await sleep(200);
    this.killEverythingNow();
    process.removeListener('exit', this.exitGuard);
    if (!process.env.HA_KEEP_DIR) rmSync(this.root, { recursive: true, force: true });
    else console.info(`cluster kept in ${this.root}`);
  }

  /** SIGKILL to every process of the cluster still alive (synchronous: also runs on process exit). */
  private killEverythingNow(): void {
    for (const node of this.nodes) {
      const postmaster = this.postmasterPid(node.name);
      if (postmaster) process.kill(postmaster, 'SIGKILL');
      if (node.patroni?.pid && node.patroni.exitCode === null && node.patroni.signalCode === null) node.patroni.kill('SIGKILL');
    }
    for (const child of [this.haproxy, this.etcd, ...this.standalones.map((s) => s.child)]) if (child?.pid && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
