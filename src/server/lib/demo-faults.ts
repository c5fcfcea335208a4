// The steps the demo adapters take in an outside system, and the grammar of DEMO_FAULTS that breaks
// them on demand (decision 111). Here rather than beside the adapters because the config reads it
// too: a spec that cannot be read stops the server at start-up, and the config sits below the
// adapters (docs/architecture.md#the-floors-of-the-server).

/** Every step PayWeave takes in an outside system, each of which can be broken on demand. */
export const DEMO_OPERATIONS = [
  'processor.preauthorize',
  'processor.issueCard',
  'processor.capture',
  'processor.release',
  'processor.setCardState',
  'payouts.registerDestination',
  'payouts.send',
  'mailer.send',
] as const;
export type DemoOperation = (typeof DEMO_OPERATIONS)[number];
export type FaultMode = 'fail' | 'timeout' | 'lose-answer';

/** Which calls of an operation a rule breaks: by number (1 = the first of that operation in this process), or all of them. */
export type FaultRule = { op: DemoOperation; mode: FaultMode; calls: Set<number> | 'all' };

const MAX_RANGE = 10_000;

/**
 * A fault spec, as DEMO_FAULTS gives it to a server process: rules separated by ";", each
 * `operation:mode@calls` where calls are numbers and ranges ("1,3,5-8") or "*" for every call.
 * "payouts.send:lose-answer@1,2;processor.capture:fail@1;mailer.send:timeout@*": the 1st and 2nd
 * payout lose their answer, the 1st capture fails, every e-mail times out.
 */
export function parseFaults(spec: string | undefined): FaultRule[] {
  if (!spec) return [];
  return spec
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const match = /^([a-zA-Z.]+):(fail|timeout|lose-answer)@(\*|\d+(?:-\d+)?(?:,\d+(?:-\d+)?)*)$/.exec(part);
      const op = match?.[1] as DemoOperation | undefined;
      if (!match || !op || !DEMO_OPERATIONS.includes(op)) {
        throw new Error(`cannot read "${part}" (expected operation:mode@calls; operations: ${DEMO_OPERATIONS.join(', ')}; modes: fail, timeout, lose-answer; calls: 1,3,5-8 or *)`);
      }
      if (match[3] === '*') return { op, mode: match[2] as FaultMode, calls: 'all' as const };
      const calls = new Set<number>();
      for (const item of match[3]!.split(',')) {
        const [from, to = from] = item.split('-').map(Number) as [number, number?];
        if (to < from || to - from > MAX_RANGE) throw new Error(`cannot read "${part}": the range ${item} is empty or longer than ${MAX_RANGE}`);
        for (let n = from; n <= to; n += 1) calls.add(n);
      }
      return { op, mode: match[2] as FaultMode, calls };
    });
}
