// The DEMO_FAULTS grammar; what a broken step does is in adapters/demo-calls.test.ts.
import { describe, expect, it } from 'vitest';
import { DEMO_OPERATIONS, parseFaults } from './demo-faults';

describe('fault specs (DEMO_FAULTS)', () => {
  it('name any step, by call numbers, ranges or every call', () => {
    expect(parseFaults('processor.preauthorize:fail@1;mailer.send:timeout@*;payouts.send:lose-answer@2,4-6')).toEqual([
      { op: 'processor.preauthorize', mode: 'fail', calls: new Set([1]) },
      { op: 'mailer.send', mode: 'timeout', calls: 'all' },
      { op: 'payouts.send', mode: 'lose-answer', calls: new Set([2, 4, 5, 6]) },
    ]);
    for (const op of DEMO_OPERATIONS) expect(parseFaults(`${op}:fail@1`)).toHaveLength(1);
  });

  it('refuse what they cannot read, naming what they expect', () => {
    expect(() => parseFaults('payouts.sned:fail@1')).toThrow(/operations: processor\.preauthorize, .*mailer\.send/);
    expect(() => parseFaults('payouts.send:explode@1')).toThrow(/modes: fail, timeout, lose-answer/);
    expect(() => parseFaults('payouts.send:fail@3-1')).toThrow(/the range 3-1 is empty/);
    expect(() => parseFaults('payouts.send:fail@1-20000')).toThrow(/longer than 10000/);
  });
});
