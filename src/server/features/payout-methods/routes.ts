// Thin handlers: parse (zod), call one service, shape the answer.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../contracts/common';
import { addPayoutMethodRequest, payoutMethodChange, payoutMethodParams, payoutMethodRequest, payoutMethodsView } from '../../../contracts/payout-methods';
import { requireUser } from '../../plugins/session';
import { addPayoutMethod, removePayoutMethod, setPreferredPayoutMethod, viewPayoutMethods } from './payout-methods-service';

const tags = ['payout-methods'];
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };

export const payoutMethodRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/payout-methods', { schema: { tags, summary: "The user's payout methods and the plan's", response: { 200: payoutMethodsView, ...errors } } }, async (request) => {
    const { userId } = requireUser(request);
    return viewPayoutMethods(app.db, userId);
  });

  app.post(
    '/payout-methods',
    {
      schema: {
        tags,
        summary: 'Add a payout method the plan allows (the first becomes preferred); its details are registered with the payout provider',
        description:
          'Answers 201 with the method added. A method already saved without details (no destination registered with the payout provider: saved before decision 168, or without `detail`) takes the details sent with it and answers 200: cash-outs and rebates can then be paid to it (decision 172). A method already saved with details is 409 `already_added`: remove it first to change them.',
        body: addPayoutMethodRequest,
        // 501 and 503: the payout provider's registration of the details (decision 168), refused in live mode or unanswered; nothing is saved.
        // 429: more registrations than a person makes (lib/money-limits.ts).
        response: { 200: payoutMethodChange, 201: payoutMethodChange, 429: errorResponse, 501: errorResponse, 503: errorResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      const { method, detail, routingNumber } = request.body;
      const added = await addPayoutMethod(app, userId, method, { detail, routingNumber });
      return reply.status(added.status).send(added.change);
    },
  );

  app.put(
    '/payout-methods/preferred',
    { schema: { tags, summary: 'Choose the preferred payout method (receives BNPL rebates)', body: payoutMethodRequest, response: { 200: payoutMethodChange, ...errors } } },
    async (request) => {
      const { userId } = requireUser(request);
      return setPreferredPayoutMethod(app, userId, request.body.method);
    },
  );

  app.delete(
    '/payout-methods/:method',
    { schema: { tags, summary: 'Remove a payout method (the preference moves or clears)', params: payoutMethodParams, response: { 200: payoutMethodChange, ...errors } } },
    async (request) => {
      const { userId } = requireUser(request);
      return removePayoutMethod(app, userId, request.params.method);
    },
  );
};
