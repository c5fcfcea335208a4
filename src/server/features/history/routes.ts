import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../contracts/common';
import { limitOn, type LimitRule } from '../../lib/rate-limit';
import { requireUser } from '../../plugins/session';
import { historyCsv } from './history-csv';

export const historyCsvQuery = z.object({ range: z.enum(['all', '7d', '1m']).default('all') });

/**
 * Exports per user (decision 174): one export reads up to 5,000 combines and their sources and
 * builds the file on the event loop (a quarter of a second to seconds for a full history), so a
 * loop of them slowed every other user's requests. A person downloads a few.
 */
export const HISTORY_EXPORT_LIMIT: LimitRule = {
  points: 10,
  durationSeconds: 10 * 60,
  message: (wait) => `Too many exports in a short time. Please wait ${wait} and try again.`,
};

export const historyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/history.csv',
    {
      schema: {
        tags: ['history'],
        summary: 'Completed combines in the range as CSV (created, completed, card amount, sources, card status, balance, fees, rebate); 10 exports in 10 minutes per user, then 429',
        querystring: historyCsvQuery,
        produces: ['text/csv'],
        response: { 200: z.string().describe('text/csv'), 400: errorResponse, 401: errorResponse, 429: errorResponse },
      },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      await limitOn(app.db, 'history:export', HISTORY_EXPORT_LIMIT).consume(userId);
      const csv = await historyCsv(app, userId, request.query.range);
      const day = app.now().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="payweave-history-${request.query.range}-${day}.csv"`)
        .send(csv);
    },
  );
};
