// Thin handlers: parse (zod), call one service, shape the answer.
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse, idempotentHeaders } from '../../../contracts/common';
import {
  addSourceRequest,
  bnplCardRequest,
  combine,
  combineList,
  completeCombineRequest,
  completeCombineResponse,
  createCombineRequest,
  listCombinesQuery,
  quote,
  quoteRequest,
  saveCombineRequest,
  updateCombineRequest,
} from '../../../contracts/combines';
import { requireUser } from '../../plugins/session';
import { idempotencyKeyFrom } from '../../lib/idempotency';
import { limitCardCheck, limitMoney } from '../../lib/money-limits';
import { addBnplCard, addSource, createCombine, deleteCombine, listCombines, removeSource, saveCombine, updateCombine, viewCombine } from './draft-service';
import { quoteForReview } from './quote-service';
import { completeCombine } from './complete-combine';

const idParams = z.object({ id: z.string().uuid('Could not find the saved combine.') });
const sourceParams = idParams.extend({ sourceId: z.string().uuid('Payment source not found.') });
const errors = { 400: errorResponse, 401: errorResponse, 404: errorResponse, 409: errorResponse };
const tags = ['combines'];

export const combineRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/combines', { schema: { tags, summary: 'Start a combine from the amount step', body: createCombineRequest, response: { 201: combine, 429: errorResponse, ...errors } } }, async (request, reply) => {
    const { userId } = requireUser(request);
    await limitMoney(app.db, 'draftCreation', userId);
    return reply.status(201).send(await createCombine(app, userId, request.body));
  });

  app.get('/combines', { schema: { tags, summary: 'Saved drafts or completed combines (history)', querystring: listCombinesQuery, response: { 200: combineList, ...errors } } }, async (request) => {
    const { userId } = requireUser(request);
    return { combines: await listCombines(app, userId, request.query) };
  });

  app.get('/combines/:id', { schema: { tags, summary: 'One combine with its sources', params: idParams, response: { 200: combine, ...errors } } }, async (request) => {
    const { userId } = requireUser(request);
    return viewCombine(app, userId, request.params.id);
  });

  app.patch('/combines/:id', { schema: { tags, summary: 'Update a draft', params: idParams, body: updateCombineRequest, response: { 200: combine, ...errors } } }, async (request) => {
    const { userId } = requireUser(request);
    return updateCombine(app, userId, request.params.id, request.body);
  });

  app.delete('/combines/:id', { schema: { tags, summary: 'Delete a draft (releases its holds)', params: idParams, response: { 204: z.null(), ...errors } } }, async (request, reply) => {
    const { userId } = requireUser(request);
    await deleteCombine(app, userId, request.params.id);
    return reply.status(204).send(null);
  });

  app.post(
    '/combines/:id/sources',
    { schema: { tags, summary: 'Add a source: validated, tokenised and pre-authorised', params: idParams, body: addSourceRequest, response: { 201: combine, 402: errorResponse, 429: errorResponse, 501: errorResponse, ...errors } } },
    async (request, reply) => {
      const { userId } = requireUser(request);
      const added = await limitCardCheck(app.db, { userId, ip: request.ip }, () => addSource(app, userId, request.params.id, request.body));
      return reply.status(201).send(added);
    },
  );

  app.delete('/combines/:id/sources/:sourceId', { schema: { tags, summary: 'Remove a source (releases its hold)', params: sourceParams, response: { 200: combine, ...errors } } }, async (request) => {
    const { userId } = requireUser(request);
    return removeSource(app, userId, request.params.id, request.params.sourceId);
  });

  app.post(
    '/combines/:id/sources/:sourceId/bnpl-card',
    { schema: { tags, summary: "The BNPL provider's one-time card (step 4)", params: sourceParams, body: bnplCardRequest, response: { 200: combine, 402: errorResponse, 429: errorResponse, 501: errorResponse, ...errors } } },
    async (request) => {
      const { userId } = requireUser(request);
      return limitCardCheck(app.db, { userId, ip: request.ip }, () => addBnplCard(app, userId, request.params.id, request.params.sourceId, request.body));
    },
  );

  app.post('/combines/:id/quote', { schema: { tags, summary: "The review step's quote", params: idParams, body: quoteRequest, response: { 200: quote, ...errors } } }, async (request) => {
    const { userId } = requireUser(request);
    return quoteForReview(app, userId, request.params.id, request.body);
  });

  app.post('/combines/:id/save', { schema: { tags, summary: 'Save for later', params: idParams, body: saveCombineRequest, response: { 200: combine, ...errors } } }, async (request) => {
    const { userId } = requireUser(request);
    return saveCombine(app, userId, request.params.id, request.body);
  });

  app.post(
    '/combines/:id/complete',
    {
      schema: {
        tags,
        summary: 'Create the virtual card (Idempotency-Key required)',
        params: idParams,
        headers: idempotentHeaders,
        body: completeCombineRequest,
        response: { 201: completeCombineResponse, 403: errorResponse, 422: errorResponse, 429: errorResponse, 501: errorResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      const key = idempotencyKeyFrom(request);
      await limitMoney(app.db, 'combineCompletion', userId);
      const result = await completeCombine(app, userId, request.params.id, request.body, key);
      // Its events go out after the commit (decision 191); a replay wrote none.
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      else app.webhooks.kick();
      return reply.status(result.status).send(result.body);
    },
  );
};
