import { describe, expect, it } from 'vitest';
import { totpCode } from './totp';

describe('the bench computes authenticator codes', () => {
  it('matches the RFC 6238 test vector (SHA-1, 6 digits)', () => {
    // RFC 6238 appendix B: secret "12345678901234567890", T = 59 s gives 94287082 (8 digits).
    const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
    expect(totpCode(secret, 59_000)).toBe('287082');
    expect(totpCode(secret, 1_111_111_109_000)).toBe('081804');
  });
});
