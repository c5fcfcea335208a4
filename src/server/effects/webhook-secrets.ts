// Webhook signing secrets at rest: AES-256-GCM with the CARD_DATA_KEY, as card numbers are
// (lib/card-crypto.ts), bound to the endpoint's id so a secret copied onto another endpoint's row
// does not decrypt. Shown to its owner once, when made; never logged (docs/rules.md#never-logged).
import { signingSecrets } from '../../core/webhook-schedule';
import { decryptCardSecret, encryptCardSecret } from '../lib/card-crypto';

const boundTo = (endpointId: string) => `webhook-endpoint:${endpointId}`;

export function encryptWebhookSecret(key: Buffer, secret: string, endpointId: string): string {
  return encryptCardSecret(key, secret, boundTo(endpointId));
}

export function decryptWebhookSecret(key: Buffer, stored: string, endpointId: string): string {
  return decryptCardSecret(key, stored, boundTo(endpointId));
}

export type StoredSecrets = { id: string; secretEnc: string; previousSecretEnc: string | null; rotatedAt: Date | null };

/** The secrets an attempt at `now` is signed with: the current one, and the previous for 24 h after a rotation. */
export function secretsToSignWith(key: Buffer, endpoint: StoredSecrets, now: Date): string[] {
  const current = decryptWebhookSecret(key, endpoint.secretEnc, endpoint.id);
  const previous = endpoint.previousSecretEnc === null ? null : decryptWebhookSecret(key, endpoint.previousSecretEnc, endpoint.id);
  return signingSecrets({ current, previous, rotatedAt: endpoint.rotatedAt, now });
}
