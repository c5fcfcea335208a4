import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without type declarations
import { anchorsOf, checkReferences, slugify } from './check-references.mjs';

const root = mkdtempSync(join(tmpdir(), 'check-references-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const tree: Record<string, string> = {
  'docs/rules.md': '# Rules\n\n<a id="fee-examples"></a>\nFees.\n\n## Plans and limits\n',
  'docs/decisions/051-one-card-validity-date.md': '# 051: One validity date\n',
  'docs/guide.md': [
    'Good: [fees](rules.md#fee-examples), [plans](rules.md#plans-and-limits), [051](decisions/051-one-card-validity-date.md), [web](https://example.com/x#y).',
    'Bad file: [gone](missing.md).',
    'Bad anchor: [fees](rules.md#no-such-anchor).',
    '`[not a link](nowhere.md)` in code is not checked.',
  ].join('\n'),
  'src/good.ts': '// docs/rules.md#fee-examples, docs/decisions/051, docs/decisions/051-one-card-validity-date.md; RFC 4648 §10\n',
  'src/bad.ts': [
    '// the fee model (DECISIONS §2)',
    '// as spec §5 says',
    "// the spec's (§8) messages",
    '// the attacker suite (issue 19)',
    '// docs/rules.md#nowhere',
    '// docs/missing.md',
  ].join('\n'),
  'migrations/0001_init.sql': '-- DECISIONS §1: cents (exempt: hashed into databases)\n',
};
for (const [path, text] of Object.entries(tree)) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

describe('check-references', () => {
  const problems: string[] = checkReferences(root, Object.keys(tree));

  it('passes good references and exempt files', () => {
    expect(problems.filter((p) => p.startsWith('src/good.ts') || p.startsWith('migrations/') || p.startsWith('docs/rules.md'))).toEqual([]);
    expect(problems.some((p) => p.startsWith('docs/guide.md:1:') || p.startsWith('docs/guide.md:4:'))).toBe(false);
  });

  it('names file:line for each citation of the outside documents and issues', () => {
    for (const line of [1, 2, 3, 4]) expect(problems.some((p) => p.startsWith(`src/bad.ts:${line}:`))).toBe(true);
  });

  it('names a link to a missing file or anchor, in docs and in code comments', () => {
    expect(problems.find((p) => p.startsWith('docs/guide.md:2:'))).toContain('no such file');
    expect(problems.find((p) => p.startsWith('docs/guide.md:3:'))).toContain('no anchor #no-such-anchor');
    expect(problems.find((p) => p.startsWith('src/bad.ts:5:'))).toContain('no anchor #nowhere');
    expect(problems.find((p) => p.startsWith('src/bad.ts:6:'))).toContain('no such file');
  });

  it('finds anchors as GitHub makes them', () => {
    expect(slugify('Figures under the floors (retired 2026-11-25)')).toBe('figures-under-the-floors-retired-2026-11-25');
    expect([...anchorsOf('# A\n## A\n<a name="x"></a>')].sort()).toEqual(['a', 'a-1', 'x']);
  });
});
