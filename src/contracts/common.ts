import { z } from 'zod';

// Every error the API returns has this one shape; `message` is safe to show to the user as is.
export const errorResponse = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.unknown().optional(),
  }),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

export const cents = z.number().int().safe();
export const isoDateTime = z.string().datetime({ offset: true });
export const uuid = z.string().uuid();
