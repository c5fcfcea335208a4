// Every error the API can answer, as one closed list: the server may only throw these codes
// (AppError takes an ErrorCode), the web app branches on them with the compiler's help, and the
// OpenAPI document lists them as the enum of `error.code`. A new refusal adds its code here first.
import { z } from 'zod';
import { ERROR_CODES } from './error-codes';

// The list lives in error-codes.ts (no zod there, for the web app's entry chunk).
export { ERROR_CODES, isErrorCode } from './error-codes';

export const errorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof errorCode>;

// Every error the API returns has this one shape; `message` is safe to show to the user as is.
export const errorResponse = z
  .object({
    error: z.object({
      code: errorCode,
      message: z.string(),
      details: z.unknown().optional(),
    }),
  })
  .meta({ id: 'Error' });
export type ErrorResponse = z.infer<typeof errorResponse>;
