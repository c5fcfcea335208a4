// Two sections of the report (report.ts): the latency at half the capacity, and the A/B comparison
// with the ref of `--against`.
import { MAX_DEARER, type AbResult, type Comparison } from './ab';
import type { LatencyFigures } from './latency';
import type { ScenarioName } from './scenarios';

const n = (value: number, digits = 0) => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const opt = (value: number | null, digits: number) => (value === null ? 'n/a' : n(value, digits));

export function latencySection(latency: Partial<Record<ScenarioName, LatencyFigures>>, labels: Record<ScenarioName, string>): string[] {
  const rows = Object.entries(latency) as Array<[ScenarioName, LatencyFigures]>;
  if (rows.length === 0) return [];
  const lines = ['### Latency at half the capacity (docs/rules.md#perf-latency)', ''];
  lines.push(`Each answer alone, sent at a steady rate (an open loop, timed one by one) of half the answers/s above, for ${rows[0]?.[1].seconds} s; * the most the sender sends, below half (its own cost on the same two cores would be measured).`);
  lines.push('');
  lines.push('| answer | capacity /s | sent at /s | sent | p50 ms | p99 ms | max ms | not 2xx |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|---|');
  for (const [name, f] of rows) {
    const failed = Object.entries(f.failed).map(([status, count]) => `${count}× ${status}`).join(', ') || '0';
    lines.push(`| ${labels[name]} | ${n(f.capacity)} | ${n(f.rate)}${f.capped ? '*' : ''} | ${n(f.sent)} | ${n(f.p50, 1)} | ${n(f.p99, 1)} | ${n(f.max, 1)} | ${failed} |`);
  }
  lines.push('');
  return lines;
}

export function abSection(ab: AbResult, comparisons: readonly Comparison[], labels: Record<ScenarioName, string>): string[] {
  const { against } = ab;
  const lines = [`### Against ${against.ref} (A/B, docs/rules.md#perf-same-run)`, ''];
  const subject = against.subject.length > 100 ? `${against.subject.slice(0, 99)}…` : against.subject;
  lines.push(`- A: \`${against.ref}\` = ${against.commit.slice(0, 10)} "${subject}", built in a worktree (node_modules: ${against.dependencies})`);
  lines.push(`- B: ${ab.head}`);
  lines.push(`- ${ab.rounds} round${ab.rounds === 1 ? '' : 's'}; in each, every scenario ran on A and then on B, on one PostgreSQL, a database each`);
  lines.push('');
  lines.push('| answer | A: CPU ms per answer | B: CPU ms per answer | B/A, round by round | median B/A | answers/s A / B |');
  lines.push('|---|---:|---:|---|---:|---:|');
  for (const c of comparisons) {
    const ratios = c.ratios.map((r) => r.toFixed(3)).join(', ') || 'n/a';
    const med = c.median === null ? 'n/a' : `**${c.median.toFixed(3)}**`;
    lines.push(`| ${labels[c.scenario]} | ${opt(c.aMs, 3)} | ${opt(c.bMs, 3)} | ${ratios} | ${med} | ${opt(c.aRps, 0)} / ${opt(c.bRps, 0)} |`);
  }
  lines.push('');
  lines.push(`CPU per answer is PostgreSQL's (the version's own database) plus the server's, the median of the rounds. A money answer (completion, cash-out, purchase) may be at most ${MAX_DEARER.toFixed(2)}× the ref's; the others are reported.`);
  lines.push('');
  return lines;
}
