import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthResponse, promoResponse, publicConfigResponse } from '../../../contracts/system';
import { errorResponse } from '../../../contracts/common';
import { readPromoStatus } from './promo-status';
import { PUBLIC } from '../../plugins/request-order';
import { SUPPORT_EMAIL } from '../../lib/support-address';

export const PAY_ADDRESS = 'pay.payweave.example';

export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['system'],
        security: PUBLIC,
        summary: 'Liveness, database reachability, and whether the database can save anything now',
        description:
          '503 when the database does not answer. `writable` is false while nothing can be saved (its storage is full: changes answer 503 storage_full) ' +
          'even though the database answers and reads work; the answer is then 200.',
        response: { 200: healthResponse, 503: healthResponse },
      },
    },
    async (_request, reply) => {
      const up = await app.database.ping();
      const writable = up && (await app.storage.writable());
      return reply.status(up ? 200 : 503).send({ status: up ? 'ok' : 'degraded', db: up ? 'up' : 'down', writable });
    },
  );

  app.get(
    '/promo',
    { schema: { tags: ['system'], security: PUBLIC, summary: 'Launch promo spots: the real counter', response: { 200: promoResponse, 503: errorResponse } } },
    async () => readPromoStatus(app.db),
  );

  app.get(
    '/config',
    { schema: { tags: ['system'], security: PUBLIC, summary: 'What the browser may know about this server', response: { 200: publicConfigResponse } } },
    async () => ({ demoMode: app.config.demoMode, supportEmail: SUPPORT_EMAIL, payAddress: PAY_ADDRESS }),
  );
};
