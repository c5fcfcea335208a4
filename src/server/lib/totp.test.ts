import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, otpauthUri, totp, totpStep, verifyTotp } from './totp';

// RFC 6238 Appendix B, SHA-1 rows: the 20-byte ASCII seed "12345678901234567890", 8 digits.
const RFC_SEED = Buffer.from('12345678901234567890', 'ascii');
const RFC6238_SHA1: Array<[number, string]> = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP (RFC 6238, HMAC-SHA-1)', () => {
  it.each(RFC6238_SHA1)('T = %i s gives %s (8 digits)', (seconds, expected) => {
    expect(totp(RFC_SEED, seconds * 1000, { digits: 8 })).toBe(expected);
  });

  it.each(RFC6238_SHA1)('T = %i s gives the last 6 digits of the same truncation', (seconds, expected) => {
    expect(totp(RFC_SEED, seconds * 1000)).toBe(expected.slice(-6));
  });

  it('HOTP matches RFC 4226 Appendix D for counters 0–9', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    expect(expected.map((_, counter) => hotp(RFC_SEED, counter))).toEqual(expected);
  });

  it('steps are 30 seconds long', () => {
    expect(totpStep(59_000)).toBe(1);
    expect(totpStep(60_000)).toBe(2);
    expect(totpStep(new Date(89_999))).toBe(2);
  });

  describe('verifyTotp', () => {
    const at = new Date(1_111_111_111_000);
    const step = totpStep(at);

    it('accepts the current code and the codes one step either side, and says which step', () => {
      expect(verifyTotp(RFC_SEED, hotp(RFC_SEED, step), at)).toBe(step);
      expect(verifyTotp(RFC_SEED, hotp(RFC_SEED, step - 1), at)).toBe(step - 1);
      expect(verifyTotp(RFC_SEED, hotp(RFC_SEED, step + 1), at)).toBe(step + 1);
    });

    it('refuses codes two steps away, wrong codes and anything that is not 6 digits', () => {
      expect(verifyTotp(RFC_SEED, hotp(RFC_SEED, step - 2), at)).toBeNull();
      expect(verifyTotp(RFC_SEED, hotp(RFC_SEED, step + 2), at)).toBeNull();
      const wrong = String((Number(hotp(RFC_SEED, step)) + 1) % 1_000_000).padStart(6, '0');
      expect(verifyTotp(RFC_SEED, wrong, at)).toBeNull();
      for (const junk of ['', '12345', '1234567', 'abcdef', ' 123456', '12 3456']) expect(verifyTotp(RFC_SEED, junk, at)).toBeNull();
    });

    it('refuses a code whose step is not later than the last one used (no replay)', () => {
      expect(verifyTotp(RFC_SEED, hotp(RFC_SEED, step), at, { afterStep: step })).toBeNull();
      expect(verifyTotp(RFC_SEED, hotp(RFC_SEED, step - 1), at, { afterStep: step - 1 })).toBeNull();
      expect(verifyTotp(RFC_SEED, hotp(RFC_SEED, step + 1), at, { afterStep: step })).toBe(step + 1);
    });
  });
});

describe('base32 (RFC 4648 §10 test vectors)', () => {
  const vectors: Array<[string, string]> = [
    ['', ''],
    ['f', 'MY======'],
    ['fo', 'MZXQ===='],
    ['foo', 'MZXW6==='],
    ['foob', 'MZXW6YQ='],
    ['fooba', 'MZXW6YTB'],
    ['foobar', 'MZXW6YTBOI======'],
  ];

  it.each(vectors)('%j ⇄ %s', (plain, encoded) => {
    expect(base32Encode(Buffer.from(plain), { padding: true })).toBe(encoded);
    expect(base32Encode(Buffer.from(plain))).toBe(encoded.replace(/=+$/, ''));
    expect(base32Decode(encoded).toString()).toBe(plain);
    expect(base32Decode(encoded.replace(/=+$/, '')).toString()).toBe(plain);
  });

  it('reads the RFC 6238 seed as authenticator apps show it', () => {
    expect(base32Encode(RFC_SEED)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode('gezd gnbv gy3t qojq gezd gnbv gy3t qojq').equals(RFC_SEED)).toBe(true);
  });

  it('round-trips every length of random bytes', () => {
    for (let length = 0; length <= 40; length += 1) {
      const bytes = Buffer.from(Array.from({ length }, (_, i) => (i * 37 + length * 11) & 0xff));
      expect(base32Decode(base32Encode(bytes)).equals(bytes)).toBe(true);
    }
  });

  it('refuses characters outside the alphabet and impossible lengths', () => {
    for (const bad of ['MZXW1===', 'MZXW0', 'MZXW8', 'M', 'MZX', 'MZXW6YTBO', 'MZ!W6']) expect(() => base32Decode(bad)).toThrow(RangeError);
  });
});

describe('otpauth URI', () => {
  it('names the issuer and the account and carries the parameters', () => {
    const uri = otpauthUri({ secretBase32: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', account: 'ann+2fa@example.com' });
    // The parameters' order is the library's (otpauth, decision 075); apps read them by name.
    const [path, query] = uri.split('?');
    expect(path).toBe('otpauth://totp/PayWeave:ann%2B2fa%40example.com');
    expect(Object.fromEntries(new URLSearchParams(query))).toEqual({ secret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', issuer: 'PayWeave', algorithm: 'SHA1', digits: '6', period: '30' });
  });
});
