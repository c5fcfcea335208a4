// `npm run lint`'s reference check. The product's rules live in docs/rules.md and the reasons in
// docs/decisions/; the documents the team started from (a product spec, a decisions list) and its
// issue tracker are not in the repository, so a citation of them leads nowhere. This fails, naming
// file:line, on
//   (a) a citation of those documents or of an issue: `DECISIONS §n`, `spec §n` (any case, also
//       "the spec's (§n)"), a bare `§n`, `PRODUCT_SPEC`, `issue n` / `issues n`;
//   (b) a relative markdown link in docs/**/*.md or README.md, or a `docs/…` path in a code file
//       (as comments cite them: `docs/rules.md#fee-examples`, `docs/decisions/051`), that names a
//       missing file, or an anchor its markdown file does not have (explicit id="…" / name="…",
//       and GitHub's heading slugs).
// Exempt: migrations/ (their SQL is hashed into every database and must not change),
// package-lock.json, this check and its test (they spell out what they refuse), and the few
// patterns in NOT_A_REFERENCE below.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const CHECKED = /\.(?:ts|tsx|mts|mjs|cjs|js|md|css|html|json|ya?ml|sh)$|^\.ci\/run$/;
const CODE = /\.(?:ts|tsx|mts|mjs|cjs|js|css|html|sh)$|^\.ci\/run$/;
const EXCLUDED = [
  /^migrations\//,
  /^package-lock\.json$/,
  // This check and its test name the citations they refuse, and the test's fake tree holds bad ones on purpose.
  /^scripts\/check-references\.(?:mjs|test\.ts)$/,
];

const CITATIONS = [
  { re: /\bDECISIONS(?:\.md)?\s*\(?\s*§/, what: 'a DECISIONS § citation' },
  { re: /\bDECISIONS\.md\b/, what: 'a DECISIONS.md citation' },
  { re: /\bPRODUCT_SPEC\b/, what: 'a PRODUCT_SPEC citation' },
  { re: /\bspec(?:['’]s)?\s*\(?\s*§/i, what: 'a spec § citation' },
  { re: /(?<!\bRFC \d+ )§\s*\d/, what: 'a bare § citation' },
  { re: /\bissues?\s+#?\d+/i, what: 'an issue citation' },
];

// What looks like a citation and is not one. Kept short; each says why.
const NOT_A_REFERENCE = [
  // A section of a standard (RFC 4648 §10) is a real, public document.
  /\bRFC \d+ §\s*\d+/g,
];

/** GitHub's heading slug: lower case, punctuation dropped (hyphens, underscores kept), spaces to hyphens. */
export function slugify(heading) {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor a markdown text defines: explicit ids and names, then heading slugs (repeats get -1, -2, …). */
export function anchorsOf(markdown) {
  const anchors = new Set();
  for (const m of markdown.matchAll(/\b(?:id|name)=["']([^"']+)["']/g)) anchors.add(m[1]);
  const seen = new Map();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    const base = slugify(h[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

function listFiles(root) {
  return execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
}

/**
 * The problems in `files` (paths relative to `root`), each `file:line: message`. `files` defaults
 * to what git tracks; tests pass a fake tree.
 */
export function checkReferences(root, files = listFiles(root)) {
  const problems = [];
  const anchorCache = new Map();
  const anchorsIn = (abs) => {
    if (!anchorCache.has(abs)) anchorCache.set(abs, anchorsOf(readFileSync(abs, 'utf8')));
    return anchorCache.get(abs);
  };
  const decisionsDir = join(root, 'docs', 'decisions');
  const decisionFiles = existsSync(decisionsDir) ? readdirSync(decisionsDir) : [];

  /** Why `target` (a path relative to `fromDir`, with an optional #anchor) leads nowhere, or null. */
  const brokenTarget = (fromAbs, target, { decisionPrefix }) => {
    const [pathPart, anchor] = target.split('#', 2);
    let abs = pathPart === '' ? fromAbs : resolve(dirname(fromAbs), decodeURI(pathPart));
    if (relative(root, abs).startsWith('..')) return `${target} is outside the repository`;
    if (!existsSync(abs)) {
      // `docs/decisions/051` names the record numbered 051.
      const rel = relative(root, abs);
      const m = decisionPrefix && /^docs\/decisions\/(\d{3})$/.exec(normalize(rel).split('\\').join('/'));
      const found = m && decisionFiles.find((f) => f.startsWith(`${m[1]}-`) && f.endsWith('.md'));
      if (!found) return `${target}: no such file`;
      abs = join(decisionsDir, found);
    }
    if (anchor !== undefined && anchor !== '') {
      if (!abs.endsWith('.md') || statSync(abs).isDirectory()) return `${target}: an anchor in a file that is not markdown`;
      if (!anchorsIn(abs).has(anchor)) return `${target}: ${relative(root, abs)} has no anchor #${anchor}`;
    }
    return null;
  };

  for (const file of files) {
    if (!CHECKED.test(file) || EXCLUDED.some((re) => re.test(file))) continue;
    const abs = join(root, file);
    if (!existsSync(abs)) continue;
    const text = readFileSync(abs, 'utf8');
    const isDocsMarkdown = file.endsWith('.md') && (file.startsWith('docs/') || file === 'README.md');
    const isCode = CODE.test(file);
    let fenced = false;
    text.split('\n').forEach((line, i) => {
      const where = `${file}:${i + 1}`;
      let scrubbed = line;
      for (const re of NOT_A_REFERENCE) scrubbed = scrubbed.replace(re, '');
      for (const { re, what } of CITATIONS) {
        const m = re.exec(scrubbed);
        if (m) problems.push(`${where}: ${what} ("${m[0]}"): cite docs/rules.md#… or a decision record`);
      }
      if (isDocsMarkdown) {
        if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
        if (fenced) return;
        const outsideCode = line.replace(/`[^`]*`/g, '');
        for (const m of outsideCode.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
          const target = m[1];
          if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//') || target.startsWith('/')) continue;
          const why = brokenTarget(abs, target, { decisionPrefix: false });
          if (why) problems.push(`${where}: link ${why}`);
        }
      }
      if (isCode) {
        for (const m of line.matchAll(/(?<![\w/.-])docs\/[\w./-]*[\w/](?:#[\w-]+)?/g)) {
          const why = brokenTarget(join(root, 'x'), m[0], { decisionPrefix: true });
          if (why) problems.push(`${where}: ${why}`);
        }
      }
    });
  }
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const problems = checkReferences(root);
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    console.error(`\n${problems.length} reference(s) lead nowhere: cite docs/rules.md#anchor or a docs/decisions/ record (scripts/check-references.mjs).`);
    process.exit(1);
  }
}
