// Thin handlers: parse (zod), call one service, shape the answer.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse, idempotentHeaders } from '../../../contracts/common';
import { cashoutList, createCashoutRequest, createCashoutResponse, listCashoutsQuery } from '../../../contracts/cashouts';
import { liveModeNotImplemented } from '../../lib/errors';
import { idempotencyKeyFrom } from '../../lib/idempotency';
import { limitMoney } from '../../lib/money-limits';
import { requireUser } from '../../plugins/session';
import { createCashout } from './create-cashout';
import { listCashouts } from './list-cashouts';

const tags = ['cashouts'];
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };

export const cashoutRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/cashouts',
    {
      schema: {
        tags,
        summary: 'Cash out a card to a payout method (Idempotency-Key required)',
        headers: idempotentHeaders,
        body: createCashoutRequest,
        response: { 201: createCashoutResponse, 422: errorResponse, 429: errorResponse, 501: errorResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      // Live mode answers 501 whatever the request holds (docs/rules.md#live-mode), so it is checked before the key.
      if (!app.config.demoMode) throw liveModeNotImplemented();
      const key = idempotencyKeyFrom(request);
      await limitMoney(app.db, 'cashout', userId);
      const result = await createCashout(app, userId, request.body, key);
      // Its events go out after the commit (decision 191); a replay wrote none.
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      else app.webhooks.kick();
      return reply.status(result.status).send(result.body);
    },
  );

  app.get(
    '/cashouts',
    { schema: { tags, summary: "The user's cash-outs, newest first", querystring: listCashoutsQuery, response: { 200: cashoutList, ...errors } } },
    async (request) => {
      const { userId } = requireUser(request);
      return { cashouts: await listCashouts(app.db, userId, request.query) };
    },
  );
};
