import { describe, expect, it } from 'vitest';
import { requestFingerprint } from './idempotency';

// The claim, the stored answer, the retry, the 422 for another request, a key released by a refusal,
// a key forgotten after 24 hours and one key sent 20 times at once: money/run-money-operation.test.ts.
describe('idempotency keys', () => {
  it('fingerprints ignore key order but not values', () => {
    const a = requestFingerprint({ method: 'POST', route: '/x', body: { a: 1, b: 2 } });
    expect(requestFingerprint({ method: 'POST', route: '/x', body: { b: 2, a: 1 } })).toBe(a);
    expect(requestFingerprint({ method: 'POST', route: '/x', body: { a: 1, b: 3 } })).not.toBe(a);
  });
});
