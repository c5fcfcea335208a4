// Thin handlers for /api/webhooks (docs/rules.md#webhooks): parse (zod), call one service, shape the answer.
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../contracts/common';
import {
  createWebhookEndpointRequest,
  listWebhookDeliveriesQuery,
  resendWebhookParams,
  webhookDeliveryList,
  webhookEndpointList,
  webhookEndpointParams,
  webhookEndpointWithSecret,
  webhookQueued,
} from '../../../contracts/webhooks';
import { requireUser } from '../../plugins/session';
import { listDeliveries, resendEvent, sendTestEvent } from './deliveries-service';
import { createEndpoint, deleteEndpoint, listEndpoints, rotateSecret } from './endpoints-service';

const tags = ['webhooks'];
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const noContent = z.null().describe('No content');

export const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/webhooks', { schema: { tags, summary: "The user's webhook endpoints", response: { 200: webhookEndpointList, ...errors } } }, async (request) => {
    const { userId } = requireUser(request);
    return { endpoints: await listEndpoints(app.db, userId, app.now()) };
  });

  app.post(
    '/webhooks',
    {
      schema: {
        tags,
        summary: 'Register a webhook endpoint (at most 5; live mode: public https URLs only). The signing secret is in this answer only.',
        body: createWebhookEndpointRequest,
        response: { 201: webhookEndpointWithSecret, 409: errorResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      return reply.status(201).send(await createEndpoint(app, { userId, url: request.body.url, ip: request.ip }));
    },
  );

  app.delete(
    '/webhooks/:id',
    { schema: { tags, summary: 'Delete a webhook endpoint and its delivery log', params: webhookEndpointParams, response: { 204: noContent, ...errors } } },
    async (request, reply) => {
      const { userId } = requireUser(request);
      await deleteEndpoint(app, { userId, endpointId: request.params.id, ip: request.ip });
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/webhooks/:id/rotate-secret',
    {
      schema: {
        tags,
        summary: 'A new signing secret, in this answer only; the previous one also signs for 24 hours',
        params: webhookEndpointParams,
        response: { 200: webhookEndpointWithSecret, ...errors },
      },
    },
    async (request) => {
      const { userId } = requireUser(request);
      return rotateSecret(app, { userId, endpointId: request.params.id, ip: request.ip });
    },
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: {
        tags,
        summary: "An endpoint's deliveries, newest first, each with its attempts (time, status, duration, the answer's first bytes)",
        params: webhookEndpointParams,
        querystring: listWebhookDeliveriesQuery,
        response: { 200: webhookDeliveryList, ...errors },
      },
    },
    async (request) => {
      const { userId } = requireUser(request);
      return { deliveries: await listDeliveries(app.db, userId, request.params.id, request.query.limit) };
    },
  );

  const queuedResponse = { 202: webhookQueued, 409: errorResponse, 429: errorResponse, ...errors };
  app.post(
    '/webhooks/:id/events/:eventId/resend',
    { schema: { tags, summary: 'Send one of your events to this endpoint again (rate-limited)', params: resendWebhookParams, response: queuedResponse } },
    async (request, reply) => {
      const { userId } = requireUser(request);
      const queued = await resendEvent(app, { userId, endpointId: request.params.id, eventId: request.params.eventId });
      app.webhooks.kick();
      return reply.status(202).send(queued);
    },
  );

  app.post(
    '/webhooks/:id/test',
    { schema: { tags, summary: 'Send a `webhook.test` event to this endpoint (rate-limited)', params: webhookEndpointParams, response: queuedResponse } },
    async (request, reply) => {
      const { userId } = requireUser(request);
      const queued = await sendTestEvent(app, { userId, endpointId: request.params.id });
      app.webhooks.kick();
      return reply.status(202).send(queued);
    },
  );
};
