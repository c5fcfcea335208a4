#!/usr/bin/env node
// `npm run lighthouse` (docs/performance.md): Lighthouse (the npm package) with Debian's
// Chromium on /, /login and a signed-in /dashboard of the production build, mobile (Lighthouse's
// default: simulated slow 4G and a 4x slower CPU) and desktop. Reports performance and
// accessibility, and every failed accessibility audit with its elements. Not part of npm test
// (about two minutes). The server runs on its embedded PostgreSQL in a scratch folder, on a port in
// 4100-4199, and stops it on SIGTERM before the folder is removed.
//
//   npm run lighthouse                    build, then audit
//   node scripts/lighthouse.mjs --strict  exit 1 below performance 95 or accessibility 100
//   node scripts/lighthouse.mjs --json out.json
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import { stopLeftPostgres } from './stop-left-postgres.mjs';

// PAYWEAVE_ROOT: audit a build laid out elsewhere (a copy with its own dist/), e.g. while dist/ is in use.
const root = path.resolve(process.env.PAYWEAVE_ROOT ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const strict = process.argv.includes('--strict');
const jsonIndex = process.argv.indexOf('--json');
const jsonOut = jsonIndex >= 0 ? process.argv[jsonIndex + 1] : undefined;
const TARGETS = { performance: 95, accessibility: 100 };
const PAGES = [
  { name: '/', path: '/', signedIn: false },
  { name: '/login', path: '/login', signedIn: false },
  { name: '/dashboard (signed in)', path: '/dashboard', signedIn: true },
];
const FORM_FACTORS = ['mobile', 'desktop'];

if (!existsSync(chromePath)) {
  console.error(`ERROR: Chromium not found at ${chromePath} (apt-get install chromium, or set CHROME_PATH).`);
  process.exit(1);
}
const entry = path.join(root, 'dist', 'server', 'main.mjs');
if (!existsSync(entry) || !existsSync(path.join(root, 'dist', 'web', 'index.html'))) {
  console.error('ERROR: no production build in dist/: run `npm run build` first (npm run lighthouse does).');
  process.exit(1);
}

function canListen(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
async function freePort() {
  for (let i = 0; i < 100; i += 1) {
    const port = 4100 + ((process.pid + 50 + i) % 100);
    if (await canListen(port)) return port;
  }
  throw new Error('no free port in 4100-4199');
}

async function startServer() {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'payweave-lighthouse-'));
  const child = spawn(process.execPath, [entry], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO_LATENCY_MS: '0',
      DEMO_DECLINE_RATE: '0',
      CARD_DATA_KEY: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(1000) })).ok) break;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`server not ready:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => {
        child.once('exit', resolve);
        setTimeout(resolve, 15_000);
      });
    }
    await stopLeftPostgres(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { url, stop };
}

/** A new account through the API; its session cookie signs Lighthouse in (extraHeaders). */
async function signedInCookie(url) {
  const password = 'Lighthouse-Pass-2026';
  const response = await fetch(`${url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `lighthouse-${Date.now()}@example.com`, password, confirmPassword: password, acceptTerms: true }),
  });
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('pw_session=') && c.length > 'pw_session='.length);
  if (response.status !== 201 || !cookie) throw new Error(`register answered ${response.status}: ${await response.text()}`);
  return cookie;
}

function failedAccessibilityAudits(lhr) {
  const refs = lhr.categories.accessibility?.auditRefs ?? [];
  return refs
    .map((ref) => lhr.audits[ref.id])
    .filter((audit) => audit && audit.score !== null && audit.score < 1 && audit.scoreDisplayMode !== 'notApplicable' && audit.scoreDisplayMode !== 'informative' && audit.scoreDisplayMode !== 'manual')
    .map((audit) => ({
      id: audit.id,
      title: audit.title,
      items: (audit.details?.items ?? []).slice(0, 5).map((item) => item.node?.snippet ?? item.node?.selector ?? JSON.stringify(item).slice(0, 160)),
    }));
}

const metric = (lhr, id) => lhr.audits[id]?.displayValue ?? 'n/a';

/** The performance audits that cost points (opportunities and diagnostics with a score below 0.9). */
function performanceFindings(lhr) {
  const metricIds = new Set(['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index', 'interactive', 'max-potential-fid']);
  return Object.values(lhr.audits)
    .filter((audit) => !metricIds.has(audit.id) && audit.score !== null && audit.score < 0.9 && ['numeric', 'binary', 'metricSavings'].includes(audit.scoreDisplayMode))
    .map((audit) => {
      const shifted = audit.id === 'layout-shifts' ? (audit.details?.items ?? []).map((item) => item.node?.snippet).filter(Boolean).slice(0, 2) : [];
      return `${audit.id}${audit.displayValue ? ` (${audit.displayValue})` : ''}${shifted.length ? `: ${shifted.join(', ')}` : ''}`;
    });
}

async function main() {
  const server = await startServer();
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  const results = [];
  try {
    const cookie = await signedInCookie(server.url);
    for (const formFactor of FORM_FACTORS) {
      for (const page of PAGES) {
        const flags = {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility'],
          ...(page.signedIn ? { extraHeaders: { Cookie: cookie } } : {}),
        };
        // NO_NAVSTART ("run Lighthouse again") now and then with this Chromium: up to three tries.
        let lhr;
        for (let attempt = 1; ; attempt += 1) {
          const runner = await lighthouse(`${server.url}${page.path}`, flags, formFactor === 'desktop' ? desktopConfig : undefined);
          if (!runner) throw new Error(`lighthouse returned nothing for ${page.path}`);
          lhr = runner.lhr;
          if (!lhr.runtimeError) break;
          if (attempt >= 3) throw new Error(`${page.path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
          console.warn(`    ${page.path}: ${lhr.runtimeError.code}, trying again`);
        }
        const finalUrl = lhr.finalDisplayedUrl ?? lhr.finalUrl;
        const result = {
          page: page.name,
          formFactor,
          finalUrl,
          performance: Math.round((lhr.categories.performance.score ?? 0) * 100),
          accessibility: Math.round((lhr.categories.accessibility.score ?? 0) * 100),
          metrics: {
            FCP: metric(lhr, 'first-contentful-paint'),
            LCP: metric(lhr, 'largest-contentful-paint'),
            TBT: metric(lhr, 'total-blocking-time'),
            CLS: metric(lhr, 'cumulative-layout-shift'),
            SI: metric(lhr, 'speed-index'),
          },
          accessibilityFailures: failedAccessibilityAudits(lhr),
          performanceFindings: performanceFindings(lhr),
          lighthouseVersion: lhr.lighthouseVersion,
          userAgent: lhr.environment?.hostUserAgent,
        };
        if (page.signedIn && !new URL(finalUrl).pathname.startsWith('/dashboard')) throw new Error(`signed-in ${page.path} ended on ${finalUrl}: the cookie did not sign in`);
        results.push(result);
        console.log(`${formFactor.padEnd(7)} ${page.name.padEnd(24)} performance ${String(result.performance).padStart(3)}  accessibility ${String(result.accessibility).padStart(3)}  ` + Object.entries(result.metrics).map(([k, v]) => `${k} ${v}`).join(', '));
        if (result.performance < TARGETS.performance && result.performanceFindings.length) console.log(`    performance: ${result.performanceFindings.join('; ')}`);
        for (const failure of result.accessibilityFailures) console.log(`    a11y: ${failure.id}: ${failure.title}${failure.items.length ? `\n      ${failure.items.join('\n      ')}` : ''}`);
      }
    }
  } finally {
    await chrome.kill();
    await server.stop();
  }
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify(results, null, 2) + '\n');
  const missed = results.filter((r) => r.performance < TARGETS.performance || r.accessibility < TARGETS.accessibility);
  console.log(missed.length === 0 ? `\nEvery page meets performance >= ${TARGETS.performance} and accessibility ${TARGETS.accessibility}.` : `\nBelow target (performance >= ${TARGETS.performance}, accessibility ${TARGETS.accessibility}): ${missed.map((r) => `${r.formFactor} ${r.page}`).join(', ')}`);
  return strict && missed.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
