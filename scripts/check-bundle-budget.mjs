#!/usr/bin/env node
// Front-end budget: the landing page's first load ships at most 120 KB of gzipped
// JavaScript (KB = 1,024 bytes, as in docs/decisions/009). Counted from the production build:
// the module script of dist/web/index.html, its modulepreload links, every chunk those import
// statically, and the landing route's lazy chunk with the dependencies Vite preloads with it
// (the router loads it at once on "/"). Each file is gzipped with node:zlib at level 9.
//
//   node scripts/check-bundle-budget.mjs [dist/web]
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_BYTES = 120 * 1024;
const LANDING_CHUNK = /^LandingPage-[\w-]+\.js$/;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webDir = path.resolve(process.argv[2] ?? path.join(root, 'dist', 'web'));
const indexFile = path.join(webDir, 'index.html');
if (!existsSync(indexFile)) {
  console.error(`ERROR: ${indexFile} is missing: run \`npm run build\` first.`);
  process.exit(1);
}
const html = readFileSync(indexFile, 'utf8');

const attr = (tag, name) => new RegExp(`\\b${name}\\s*=\\s*"([^"]*)"`).exec(tag)?.[1];
const fromRoot = (url) => path.join(webDir, url.replace(/^\//, '').split('?')[0]);

const entries = [];
for (const tag of html.match(/<script\b[^>]*>/g) ?? []) {
  if (attr(tag, 'type') === 'module' && attr(tag, 'src')) entries.push(fromRoot(attr(tag, 'src')));
}
for (const tag of html.match(/<link\b[^>]*>/g) ?? []) {
  if (attr(tag, 'rel') === 'modulepreload' && attr(tag, 'href')) entries.push(fromRoot(attr(tag, 'href')));
}
if (entries.length === 0) {
  console.error(`ERROR: no module script in ${indexFile}`);
  process.exit(1);
}

/** @type {Map<string, string>} file -> why it is counted */
const counted = new Map();
const source = (file) => readFileSync(file, 'utf8');

function addWithStaticImports(file, why) {
  if (counted.has(file)) return;
  if (!existsSync(file)) throw new Error(`${path.relative(webDir, file)} (${why}) does not exist`);
  counted.set(file, why);
  // Minified static imports: `import{a as b}from"./x.js"` and `import"./x.js"` (not `import("./x.js")`).
  for (const match of source(file).matchAll(/(?:\bfrom|\bimport)\s*"(\.{1,2}\/[^"]+\.js)"/g)) {
    addWithStaticImports(path.resolve(path.dirname(file), match[1]), `imported by ${path.basename(file)}`);
  }
}

for (const file of entries) addWithStaticImports(file, 'index.html');

// The landing route's lazy chunk: `import("./LandingPage-x.js"),__vite__mapDeps([i, …])` in a counted
// chunk; the indexes point into the list `__vite__mapDeps` keeps (paths from the web root).
let landingFound = false;
for (const file of [...counted.keys()]) {
  const text = source(file);
  const deps = /__vite__mapDeps=\([^)]*m\.f=(\[[^\]]*\])/.exec(text);
  const depList = deps ? JSON.parse(deps[1]) : [];
  for (const match of text.matchAll(/import\("(\.{1,2}\/[^"]+\.js)"\)(?:,__vite__mapDeps\(\[([\d,]*)\]\))?/g)) {
    if (!LANDING_CHUNK.test(path.basename(match[1]))) continue;
    landingFound = true;
    addWithStaticImports(path.resolve(path.dirname(file), match[1]), 'landing route chunk (loaded at once on /)');
    for (const index of (match[2] ?? '').split(',').filter(Boolean)) {
      const dep = depList[Number(index)];
      if (typeof dep === 'string' && dep.endsWith('.js')) addWithStaticImports(fromRoot(dep), 'preloaded with the landing chunk');
    }
  }
}
if (!landingFound) {
  console.error('ERROR: the landing route chunk (LandingPage-*.js) was not found among the dynamic imports of the entry: the check cannot count it.');
  process.exit(1);
}

let total = 0;
const rows = [...counted].map(([file, why]) => {
  const raw = readFileSync(file);
  const gzipped = gzipSync(raw, { level: 9 }).length;
  total += gzipped;
  return { file: path.relative(webDir, file), raw: raw.length, gzipped, why };
});
rows.sort((a, b) => b.gzipped - a.gzipped);
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
console.log('Landing page first load, JavaScript (gzip -9):');
for (const row of rows) console.log(`  ${kb(row.gzipped).padStart(9)}  (${kb(row.raw)} raw)  ${row.file}  — ${row.why}`);
console.log(`  ${kb(total).padStart(9)}  total; budget ${kb(BUDGET_BYTES)} (${((total / BUDGET_BYTES) * 100).toFixed(1)}%)`);
if (total > BUDGET_BYTES) {
  console.error(`ERROR: the landing page ships ${kb(total)} of gzipped JavaScript, over its ${kb(BUDGET_BYTES)} budget (docs/performance.md, docs/decisions/009).`);
  process.exit(1);
}
