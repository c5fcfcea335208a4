import { z } from 'zod';
import type { TwoFactorSetup } from '../../../../contracts/two-factor';

/** The two-factor panel's steps, one shown at a time. */
export type TwoFactorView =
  | { step: 'idle' }
  | { step: 'password' }
  | { step: 'setup'; setup: TwoFactorSetup }
  | { step: 'codes'; codes: string[]; reason: 'enabled' | 'regenerated' }
  | { step: 'disable' }
  | { step: 'regenerate' };

export const savedForm = z.object({
  saved: z.boolean().refine((value) => value, 'Confirm that you have saved your recovery codes'),
});

/** The secret in groups of four, as authenticator apps let you type it. */
export function groupSecret(secret: string): string {
  return secret.match(/.{1,4}/g)?.join(' ') ?? secret;
}
