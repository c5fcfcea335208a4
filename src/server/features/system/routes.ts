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
    { schema: { tags: ['system'], security: PUBLIC, summary: 'Liveness and database reachability', response: { 200: healthResponse, 503: healthResponse } } },
    async (_request, reply) => {
      const up = await app.database.ping();
      return reply.status(up ? 200 : 503).send({ status: up ? 'ok' : 'degraded', db: up ? 'up' : 'down' });
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
