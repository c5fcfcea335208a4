// The other version of an A/B run (`npm run bench -- --against <ref>`, docs/rules.md#perf-same-run):
// the ref checked out in a temporary git worktree, its dependencies installed, and built with its
// own `npm run build`, so that what runs is what that commit's own build makes. Removed at the end,
// after a failure and on Ctrl-C.
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, lstatSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectRoot, runCommand, type CommandResult } from './processes';

export type RefBuild = {
  /** What was asked for (`main`, `HEAD~1`, a hash). */
  ref: string;
  commit: string;
  /** The commit's first line, for the report. */
  subject: string;
  dir: string;
  /** Its server bundle, run with `dir` as the working directory. */
  entry: string;
  /** How its node_modules came to be. */
  dependencies: 'shared' | 'npm ci';
};

const tail = (text: string, chars = 3_000) => (text.length > chars ? `…${text.slice(-chars)}` : text);

async function git(args: string[], cwd = projectRoot): Promise<string> {
  const out = await runCommand('git', args, process.env, cwd);
  if (out.code !== 0) throw new Error(`git ${args.join(' ')} failed (${out.code}): ${tail(out.stderr || out.stdout)}`);
  return out.stdout.trim();
}

function mustSucceed(what: string, out: CommandResult): void {
  if (out.code !== 0) throw new Error(`${what} failed (exit ${out.code}):\n${tail(`${out.stdout}\n${out.stderr}`)}`);
}

/** The commit a ref names in this repository, or a plain error saying it names none. */
export async function resolveRef(ref: string): Promise<{ commit: string; subject: string }> {
  const commit = await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).catch(() => '');
  if (!commit) throw new Error(`--against ${ref}: not a commit of ${projectRoot} (try a branch, a tag, HEAD~1 or a hash)`);
  return { commit, subject: await git(['log', '-1', '--format=%s', commit]) };
}

let current: string | undefined;

/**
 * Checks the ref out with `git worktree add --detach`, shares this tree's node_modules when the
 * two package-lock.json files are the same (else `npm ci` there), and runs its `npm run build`.
 */
export async function buildRef(ref: string, log: (line: string) => void): Promise<RefBuild> {
  const { commit, subject } = await resolveRef(ref);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'payweave-bench-ref-'));
  current = dir;
  log(`${ref} is ${commit.slice(0, 10)} (${subject.slice(0, 80)}); worktree ${dir}`);
  await git(['worktree', 'add', '--detach', dir, commit]);
  const lock = (root: string) => (existsSync(path.join(root, 'package-lock.json')) ? readFileSync(path.join(root, 'package-lock.json'), 'utf8') : null);
  const ours = lock(projectRoot);
  let dependencies: RefBuild['dependencies'];
  if (ours !== null && ours === lock(dir) && existsSync(path.join(projectRoot, 'node_modules'))) {
    symlinkSync(path.join(projectRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    dependencies = 'shared';
    log('  same package-lock.json: node_modules shared');
  } else {
    log('  package-lock.json differs: npm ci in the worktree');
    mustSucceed(`npm ci in ${dir}`, await runCommand('npm', ['ci', '--no-audit', '--no-fund'], process.env, dir));
    dependencies = 'npm ci';
  }
  const started = performance.now();
  mustSucceed(`npm run build of ${ref} in ${dir}`, await runCommand('npm', ['run', 'build'], process.env, dir));
  const entry = path.join(dir, 'dist', 'server', 'main.mjs');
  if (!existsSync(entry)) throw new Error(`npm run build of ${ref} made no ${entry}`);
  log(`  built in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return { ref, commit, subject, dir, entry, dependencies };
}

/** Removes the worktree (and its registration); safe to call twice, and when none was made. */
export async function removeRefWorktree(): Promise<void> {
  const dir = current;
  if (!dir) return;
  current = undefined;
  // The shared node_modules is a link into this tree: unlink it first, so nothing follows it.
  const link = path.join(dir, 'node_modules');
  try {
    if (lstatSync(link).isSymbolicLink()) unlinkSync(link);
  } catch {
    // no link (npm ci, or the checkout never got that far)
  }
  const removed = await git(['worktree', 'remove', '--force', dir]).then(
    () => true,
    (error: unknown) => {
      console.warn(`[bench] ${String(error)}`);
      return false;
    },
  );
  if (!removed) {
    // The checkout never completed, or git could not remove it: delete it, then its registration.
    rmSync(dir, { recursive: true, force: true });
    await git(['worktree', 'prune']).catch(() => {});
  }
}
