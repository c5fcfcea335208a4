// Thin handlers: parse (zod), call one service, shape the answer.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse, optionallyIdempotentHeaders } from '../../../contracts/common';
import { cancelResponse, plansResponse, subscriptionView, upgradeRequest, upgradeResponse } from '../../../contracts/subscription';
import { idempotencyKeyFrom } from '../../lib/idempotency';
import { requireUser } from '../../plugins/session';
import { viewPlans, viewSubscription } from './subscription-view';
import { cancelSubscription } from './cancel-subscription';
import { liveUpgradeNotImplemented, upgradeSubscription } from './upgrade-subscription';

const tags = ['subscription'];
const errors = { 400: errorResponse, 401: errorResponse, 404: errorResponse, 409: errorResponse };

export const subscriptionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/plans', { schema: { tags, summary: "Plans with prices, limits, fees, payout methods and the user's loyalty discount", response: { 200: plansResponse, ...errors } } }, async (request) => {
    const { userId } = requireUser(request);
    return viewPlans(app.db, userId, app.now());
  });

  app.get('/subscription', { schema: { tags, summary: "The user's subscription", response: { 200: subscriptionView, ...errors } } }, async (request) => {
    const { userId } = requireUser(request);
    return viewSubscription(app.db, userId);
  });

  app.post(
    '/subscription/upgrade',
    {
      schema: {
        tags,
        summary: 'Pay for a higher plan and switch to it (Idempotency-Key recommended)',
        headers: optionallyIdempotentHeaders,
        body: upgradeRequest,
        response: { 200: upgradeResponse, 422: errorResponse, 501: errorResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      if (!app.config.demoMode) throw liveUpgradeNotImplemented();
      const key = request.headers['idempotency-key'] === undefined ? null : idempotencyKeyFrom(request);
      const result = await upgradeSubscription(app, userId, request.body, key);
      return reply.status(result.status).send(result.body);
    },
  );

  app.post(
    '/subscription/cancel',
    { schema: { tags, summary: 'Cancel: the plan stays until the end of the paid period, then Free', response: { 200: cancelResponse, ...errors } } },
    async (request) => {
      const { userId } = requireUser(request);
      return cancelSubscription(app, userId);
    },
  );
};
