// Virtual-card numbers and CVVs at rest: AES-256-GCM with the CARD_DATA_KEY (docs/rules.md#never-logged).
// Format: base64(iv).base64(tag).base64(ciphertext); a fresh 96-bit IV per value. The card id is
// bound as associated data, so a ciphertext copied onto another card's row does not decrypt.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export function encryptCardSecret(key: Buffer, plaintext: string, cardId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(cardId));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64')).join('.');
}

export function decryptCardSecret(key: Buffer, stored: string, cardId: string): string {
  const [iv, tag, ciphertext] = stored.split('.').map((part) => Buffer.from(part, 'base64'));
  if (!iv || !tag || !ciphertext) throw new Error('stored card secret is malformed');
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(Buffer.from(cardId));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
}
