import { z } from 'zod';

// The error shape and its closed list of codes live in errors.ts; re-exported for the routes.
export { errorCode, errorResponse, type ErrorCode, type ErrorResponse } from './errors';

export const cents = z.number().int().safe();
export const isoDateTime = z.string().datetime({ offset: true });
export const uuid = z.string().uuid();
