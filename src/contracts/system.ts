import { z } from 'zod';

export const healthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  db: z.enum(['up', 'down']),
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
