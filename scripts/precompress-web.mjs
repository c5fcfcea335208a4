#!/usr/bin/env node
// After `vite build`: writes a brotli (.br) and a gzip (.gz) copy beside every text asset of
// dist/web worth compressing, once, at maximum compression. The server sends them with
// @fastify/static's preCompressed option to browsers that accept the encoding, so the landing
// page's JavaScript crosses the network at about a third of its size (docs/performance.md).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webDir = path.resolve(process.argv[2] ?? path.join(root, 'dist', 'web'));
const TEXT = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;
const MIN_BYTES = 1024;

let files = 0;
let before = 0;
let after = 0;
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) {
      walk(file);
      continue;
    }
    if (!TEXT.test(name)) continue;
    const raw = readFileSync(file);
    if (raw.length < MIN_BYTES) continue;
    const br = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } });
    writeFileSync(`${file}.br`, br);
    writeFileSync(`${file}.gz`, gzipSync(raw, { level: 9 }));
    files += 1;
    before += raw.length;
    after += br.length;
  }
}
walk(webDir);
console.log(`precompressed ${files} files in ${path.relative(root, webDir) || webDir}: ${(before / 1024).toFixed(0)} KB -> ${(after / 1024).toFixed(0)} KB brotli`);
