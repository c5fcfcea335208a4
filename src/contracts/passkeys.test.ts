import { describe, expect, it } from 'vitest';
import { authenticationCredential } from './passkeys';

const base64url = (bytes: number) => Buffer.alloc(bytes, 7).toString('base64url');

function answer(signatureBytes: number) {
  return {
    id: base64url(32),
    rawId: base64url(32),
    type: 'public-key',
    clientExtensionResults: {},
    response: { clientDataJSON: base64url(120), authenticatorData: base64url(37), signature: base64url(signatureBytes) },
  };
}

describe('a passkey sign-in answer', () => {
  it('takes the signatures of every algorithm the server offers, post-quantum ML-DSA-87 the largest', () => {
    for (const bytes of [64 /* ES256, EdDSA */, 512 /* RS256 with a 4096-bit key */, 2_420 /* ML-DSA-44 */, 4_627 /* ML-DSA-87 */]) {
      expect(authenticationCredential.safeParse(answer(bytes)).success).toBe(true);
    }
  });

  it('refuses a signature longer than any algorithm makes', () => {
    expect(authenticationCredential.safeParse(answer(6_200)).success).toBe(false);
  });
});
