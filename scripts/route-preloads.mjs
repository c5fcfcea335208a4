#!/usr/bin/env node
// After `vite build --manifest`: writes dist/web/route-preloads.json, the JavaScript and CSS each
// page route needs beyond the entry chunk. The server puts them in index.html as preload links for
// the path it serves, so the browser fetches a page's lazy chunk alongside the entry chunk instead
// of after it has run (on /login that chain cost about 0.5 s of LCP on Lighthouse's mobile
// profile; docs/performance.md). Routes come from src/web/app/router.tsx; a route whose module is
// missing from the manifest fails the build, so a renamed page cannot silently lose its preload.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webDir = path.resolve(process.argv[2] ?? path.join(root, 'dist', 'web'));
const manifestFile = path.join(webDir, '.vite', 'manifest.json');
if (!existsSync(manifestFile)) {
  console.error(`route-preloads: ${path.relative(root, manifestFile)} is missing (vite build needs --manifest)`);
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
const routerSource = readFileSync(path.join(root, 'src', 'web', 'app', 'router.tsx'), 'utf8');

// Signed-in routes (after the layout route that loads the signed-in shell) also need the shell's own lazy chunk.
const appShellAt = routerSource.indexOf('lazy: page(loadAppShell)');
const SHELL_MODULE = 'app/shells/AppShellFrame.tsx';
if (appShellAt < 0 || !manifest[SHELL_MODULE]) {
  console.error('route-preloads: cannot find the signed-in layout route (lazy: page(loadAppShell)) in router.tsx or its chunk in the manifest');
  process.exit(1);
}

/** Every file a manifest entry loads, its static imports first, without the entry chunk (already in the page). */
function filesOf(key, seen = new Set()) {
  const entry = manifest[key];
  if (!entry || entry.isEntry || seen.has(key)) return [];
  seen.add(key);
  const files = [];
  for (const imported of entry.imports ?? []) files.push(...filesOf(imported, seen));
  files.push(entry.file, ...(entry.css ?? []));
  return files;
}

const ROUTE = /\{\s*path:\s*'([^']+)',\s*lazy:\s*page\(\(\)\s*=>\s*import\('\.\.\/([^']+)'\)\)/g;
const routes = [];
for (const match of routerSource.matchAll(ROUTE)) {
  const [, routePath, modulePath] = match;
  const key = `${modulePath}.tsx`;
  if (!manifest[key]) {
    console.error(`route-preloads: route ${routePath} imports ${key}, which is not in the Vite manifest`);
    process.exit(1);
  }
  const seen = new Set();
  const files = [...(match.index > appShellAt ? filesOf(SHELL_MODULE, seen) : []), ...filesOf(key, seen)];
  routes.push({ path: routePath, files: [...new Set(files)].map((file) => `/${file}`) });
}
if (routes.length === 0) {
  console.error('route-preloads: found no lazy routes in router.tsx');
  process.exit(1);
}
writeFileSync(path.join(webDir, 'route-preloads.json'), `${JSON.stringify(routes, null, 2)}\n`);
// The manifest has done its job; it is not served.
rmSync(path.join(webDir, '.vite'), { recursive: true, force: true });
console.log(`route preloads for ${routes.length} routes`);
