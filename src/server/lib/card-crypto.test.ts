import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptCardSecret, encryptCardSecret } from './card-crypto';

describe('card secrets at rest (AES-256-GCM)', () => {
  const key = randomBytes(32);
  it('round-trips and never stores the plaintext', () => {
    const stored = encryptCardSecret(key, '4111111111111111', 'card-1');
    expect(stored).not.toContain('4111');
    expect(decryptCardSecret(key, stored, 'card-1')).toBe('4111111111111111');
  });
  it('uses a fresh IV each time', () => {
    expect(encryptCardSecret(key, '123', 'c')).not.toBe(encryptCardSecret(key, '123', 'c'));
  });
  it('refuses a ciphertext moved to another card or read with another key', () => {
    const stored = encryptCardSecret(key, '123', 'card-1');
    expect(() => decryptCardSecret(key, stored, 'card-2')).toThrow();
    expect(() => decryptCardSecret(randomBytes(32), stored, 'card-1')).toThrow();
  });
});
