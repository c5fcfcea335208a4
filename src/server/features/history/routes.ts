import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../contracts/common';
import { requireUser } from '../../plugins/session';
import { historyCsv } from './history-csv';

export const historyCsvQuery = z.object({ range: z.enum(['all', '7d', '1m']).default('all') });

export const historyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/history.csv',
    {
      schema: {
        tags: ['history'],
        summary: 'Completed combines in the range as CSV (created, completed, card amount, sources, card status, balance, fees, rebate)',
        querystring: historyCsvQuery,
        produces: ['text/csv'],
        response: { 200: z.string().describe('text/csv'), 400: errorResponse, 401: errorResponse },
      },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      const csv = await historyCsv(app, userId, request.query.range);
      const day = app.now().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="payweave-history-${request.query.range}-${day}.csv"`)
        .send(csv);
    },
  );
};
