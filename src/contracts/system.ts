import { z } from 'zod';

// `status` and `db` say whether the database answers (503 when it does not); `writable` whether it
// can save anything now: false while its storage is full (docs/decisions/181), when reads still work.
export const healthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  db: z.enum(['up', 'down']),
  writable: z.boolean(),
});

export const promoResponse = z.object({
  limitCount: z.number().int(),
  claimedCount: z.number().int(),
  remainingCount: z.number().int(),
});
export type PromoStatus = z.infer<typeof promoResponse>;

// What the browser may know about the server's configuration: an explicit allowlist.
export const publicConfigResponse = z.object({
  demoMode: z.boolean(),
  supportEmail: z.string(),
  payAddress: z.string(),
});
export type PublicConfig = z.infer<typeof publicConfigResponse>;
