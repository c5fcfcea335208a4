// Configuration is read once, at start-up, from the environment and validated with zod.
// A bad variable stops the server with a message naming it (Epic Stack style).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { parseFaults } from './lib/demo-faults';
import { writeFileDurably } from './lib/durable-file';

const booleanUnlessFalse = z
  .string()
  .optional()
  .transform((value) => value?.trim().toLowerCase() !== 'false');

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  // '::' is dual-stack: browsers resolve localhost to ::1 first, curl often to 127.0.0.1.
  HOST: z.string().min(1).default('::'),
  DATABASE_URL: z
    .string()
    .url({ message: 'must be a postgres:// URL' })
    .refine((url) => /^postgres(ql)?:\/\//.test(url), 'must be a postgres:// URL')
    .optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DEMO_MODE: booleanUnlessFalse,
  // Unset: the spec's demo timings (pre-auth 1.5 s, creation 2 s, cash-out 2 s). Tests set 0.
  DEMO_LATENCY_MS: z.coerce.number().int().min(0).max(60_000).optional(),
  DEMO_DECLINE_RATE: z.coerce.number().min(0).max(1).default(0.1),
  CARD_DATA_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (a 256-bit AES key)')
    .optional(),
  SMTP_URL: z
    .string()
    .refine((url) => /^smtps?:\/\//.test(url), 'must be an smtp:// or smtps:// URL')
    .optional(),
  APP_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Which proxies' X-Forwarded-For to believe (docs/scaling.md): "false" (default), "true" (all:
  // only when the balancer overwrites the header), a hop count, or proxy addresses/CIDRs, comma-separated.
  TRUST_PROXY: z
    .string()
    .trim()
    .refine((v) => /^(true|false|\d{1,2}|[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*)$/.test(v), 'must be true, false, a hop count or comma-separated proxy addresses')
    .transform((v): boolean | number | string[] => (v === 'true' ? true : v === 'false' ? false : /^\d+$/.test(v) ? Number(v) : v.split(',').map((a) => a.trim())))
    .optional(),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  // Benchmarks only (docs/decisions/013): turns every rate limit off (decision 082).
  // Exactly "true" or "false"; refused outside demo mode (see loadConfig).
  RATE_LIMIT_DISABLED: z.enum(['true', 'false'], { message: 'must be "true" or "false"' }).default('false'),
  // Money effects (decision 030): the wait before the first retry of a failed effect, doubled at
  // each further failure; fault tests set it low.
  EFFECT_RETRY_BASE_MS: z.coerce.number().int().min(0).max(3_600_000).default(2_000),
  // How long a claimed effect is reserved for the drain that claimed it (longer than any call).
  EFFECT_LEASE_MS: z.coerce.number().int().min(500).max(3_600_000).default(15_000),
  // Demo adapters only (fault tests): a file every adapter call is appended to (JSON lines), and
  // faults to inject at any step, e.g. "payouts.send:lose-answer@1,2;processor.capture:fail@1;
  // mailer.send:timeout@*" (lib/demo-faults.ts, parseFaults).
  DEMO_ADAPTER_LOG: z.string().min(1).optional(),
  DEMO_FAULTS: z
    .string()
    .min(1)
    .superRefine((spec, context) => {
      try {
        parseFaults(spec);
      } catch (error) {
        context.addIssue({ code: 'custom', message: (error as Error).message });
      }
    })
    .optional(),
  // Demo mode only (docs/rules.md#webhooks): webhooks may go to this machine (127.0.0.1, ::1), for a
  // receiver under development. Off by default; never in live mode, where only public https URLs pass.
  WEBHOOKS_ALLOW_LOOPBACK: z.enum(['true', 'false'], { message: 'must be "true" or "false"' }).default('false'),
  // How long a "timeout" fault hangs before it rejects.
  DEMO_FAULT_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(200),
});

export type Config = {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  demoMode: boolean;
  demoLatencyMs: number | undefined;
  demoDeclineRate: number;
  cardDataKey: Buffer;
  smtpUrl: string | undefined;
  appUrl: string;
  logLevel: string;
  trustProxy: boolean | number | string[];
  dbPoolSize: number;
  /** Benchmarks only: the account rate limits count nothing and refuse nothing. Demo mode only. */
  rateLimitDisabled: boolean;
  effectRetryBaseMs: number;
  effectLeaseMs: number;
  demoFaultTimeoutMs: number;
  demoAdapterLog: string | undefined;
  demoFaults: string | undefined;
  /** Demo mode only: webhook URLs on loopback are accepted and called. */
  webhooksAllowLoopback: boolean;
};

export class ConfigError extends Error {}

function emptyToUndefined(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === '' ? undefined : v]));
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(emptyToUndefined(env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const problems: string[] = [];
  // Rate limits protect real accounts from password guessing: never off where accounts are real.
  if (e.RATE_LIMIT_DISABLED === 'true' && !e.DEMO_MODE) problems.push('RATE_LIMIT_DISABLED: may only be "true" in demo mode (DEMO_MODE=false here)');
  // Without SMTP, mail would stay in the stored outbox, where a reset link must never wait for
  // strangers (docs/rules.md#security): a live deployment is reachable by others, so it must send mail.
  if (!e.DEMO_MODE && !e.SMTP_URL) problems.push('SMTP_URL: required when DEMO_MODE=false (live mode sends e-mail through SMTP; it never keeps it for the demo mailbox)');
  if (!e.DEMO_MODE && !e.CARD_DATA_KEY) problems.push('CARD_DATA_KEY: required when DEMO_MODE=false');
  if (!e.DEMO_MODE && e.WEBHOOKS_ALLOW_LOOPBACK === 'true') problems.push('WEBHOOKS_ALLOW_LOOPBACK: may only be "true" in demo mode (DEMO_MODE=false here)');
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.map((line) => `  ${line}`).join('\n')}`);
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir,
    demoMode: e.DEMO_MODE,
    demoLatencyMs: e.DEMO_LATENCY_MS,
    demoDeclineRate: e.DEMO_DECLINE_RATE,
    cardDataKey: resolveCardDataKey(e.CARD_DATA_KEY, e.DEMO_MODE, dataDir),
    smtpUrl: e.SMTP_URL,
    appUrl: (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY ?? false,
    dbPoolSize: e.DB_POOL_SIZE,
    rateLimitDisabled: e.RATE_LIMIT_DISABLED === 'true',
    effectRetryBaseMs: e.EFFECT_RETRY_BASE_MS,
    effectLeaseMs: e.EFFECT_LEASE_MS,
    demoFaultTimeoutMs: e.DEMO_FAULT_TIMEOUT_MS,
    demoAdapterLog: e.DEMO_ADAPTER_LOG,
    demoFaults: e.DEMO_FAULTS,
    webhooksAllowLoopback: e.WEBHOOKS_ALLOW_LOOPBACK === 'true',
  };
}

// Demo mode may invent its key on first start (kept in DATA_DIR so cards stay readable after a
// restart); live mode must be given one, because a lost key means unreadable cards.
function resolveCardDataKey(hex: string | undefined, demoMode: boolean, dataDir: string): Buffer {
  if (hex) return Buffer.from(hex, 'hex');
  if (!demoMode) {
    throw new ConfigError('Invalid configuration:\n  CARD_DATA_KEY: required when DEMO_MODE=false');
  }
  const keyFile = path.join(dataDir, 'card-data.key');
  if (existsSync(keyFile)) {
    const stored = readFileSync(keyFile, 'utf8').trim();
    if (!/^[0-9a-fA-F]{64}$/.test(stored)) throw new ConfigError(`Invalid configuration:\n  ${keyFile} is not a 256-bit hex key`);
    return Buffer.from(stored, 'hex');
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  // Whole or not at all: a torn key file would make every stored card unreadable.
  writeFileDurably(keyFile, key.toString('hex') + '\n', 0o600);
  return key;
}
