// Thin handlers: parse (zod), call one service, shape the answer.
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse, idempotentHeaders } from '../../../contracts/common';
import { cardControlsRequest, cardControlsResponse } from '../../../contracts/card-controls';
import { card, cardList, cardParams, cardReveal, cardTransactionList, listCardsQuery, purchaseRequest, purchaseResponse } from '../../../contracts/cards';
import { requireRecentPassword, requireUser } from '../../plugins/session';
import { idempotencyKeyFrom } from '../../lib/idempotency';
import { limitMoney } from '../../lib/money-limits';
import { getCardControls, setCardControls } from './card-controls';
import { setCardFrozen } from './freeze-card';
import { listCardTransactions } from './list-card-transactions';
import { getCard, listCardsJson } from './list-cards';
import { REVEAL_REAUTH_WINDOW_MS, revealCard } from './reveal-card';
import { simulatePurchase } from './simulate-purchase';

const errors = { 400: errorResponse, 401: errorResponse, 404: errorResponse };
const tags = ['cards'];

export const cardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/cards',
    { schema: { tags, summary: 'The signed-in user’s cards, newest first (masked numbers only)', querystring: listCardsQuery, response: { 200: cardList, ...errors } } },
    async (request, reply) => {
      const { userId } = requireUser(request);
      const json = await listCardsJson(app, userId, request.query.status, (answer) => String(reply.serialize(answer)));
      // Already serialized by this route's serializer (checked against the contract): a string
      // with a JSON content type is sent as it is.
      const sendAsIs: FastifyReply = reply;
      return sendAsIs.type('application/json; charset=utf-8').send(json);
    },
  );

  app.get('/cards/:id', { schema: { tags, summary: 'One card (masked number only)', params: cardParams, response: { 200: card, ...errors } } }, async (request) => {
    const { userId } = requireUser(request);
    return getCard(app, userId, request.params.id);
  });

  app.post(
    '/cards/:id/reveal',
    {
      schema: {
        tags,
        summary: 'Full number, expiry and CVV; needs the password entered within 5 minutes (else 403 reauthentication_required); audited',
        params: cardParams,
        response: { 200: cardReveal, 403: errorResponse, 429: errorResponse, ...errors },
      },
    },
    async (request) => {
      const { userId } = requireUser(request);
      await limitMoney(app.db, 'cardReveal', userId);
      return revealCard(app, {
        userId,
        cardId: request.params.id,
        ip: request.ip,
        assertRecentPassword: () => requireRecentPassword(request, REVEAL_REAUTH_WINDOW_MS),
      });
    },
  );

  for (const [action, frozen] of [['freeze', true], ['unfreeze', false]] as const) {
    app.post(
      `/cards/:id/${action}`,
      {
        schema: {
          tags,
          summary: frozen
            ? 'Freeze a card (instant, audited; never rate-limited)'
            : 'Unfreeze a card (instant, audited; 10 in 10 minutes per user, then 429: each change is told to the card processor, decision 173)',
          params: cardParams,
          response: { 200: card, 409: errorResponse, ...(frozen ? {} : { 429: errorResponse }), ...errors },
        },
      },
      async (request) => {
        const { userId } = requireUser(request);
        // A freeze protects the card and is always taken; unfreezes bound the toggles (decision 173).
        if (!frozen) await limitMoney(app.db, 'cardUnfreeze', userId);
        const updated = await setCardFrozen(app, { userId, cardId: request.params.id, frozen, ip: request.ip });
        // The processor is told after the commit (decision 170): a freeze must reach it at once.
        app.cardStates.kick();
        app.webhooks.kick();
        return updated;
      },
    );
  }

  app.post(
    '/cards/:id/purchases',
    {
      schema: {
        tags,
        summary: 'Simulate a purchase (demo mode; Idempotency-Key required). Declines answer 402 `declined` and are recorded.',
        params: cardParams,
        headers: idempotentHeaders,
        body: purchaseRequest,
        response: { 201: purchaseResponse, 402: errorResponse, 409: errorResponse, 422: errorResponse, 429: errorResponse, 501: errorResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      const idempotencyKey = idempotencyKeyFrom(request);
      await limitMoney(app.db, 'purchase', userId);
      const result = await simulatePurchase(app, { userId, cardId: request.params.id, request: request.body, idempotencyKey });
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      else app.webhooks.kick();
      return reply.status(result.status).send(result.body as never);
    },
  );

  app.get(
    '/cards/:id/transactions',
    { schema: { tags, summary: 'Purchases, cash-outs, transfers and funding of one card, newest first', params: cardParams, response: { 200: cardTransactionList, ...errors } } },
    async (request) => {
      const { userId } = requireUser(request);
      return listCardTransactions(app.db, userId, request.params.id);
    },
  );

  app.get(
    '/cards/:id/controls',
    {
      schema: {
        tags,
        summary: 'The card’s spend controls (limits, merchant lock, categories) and what its limits leave now',
        params: cardParams,
        response: { 200: cardControlsResponse, ...errors },
      },
    },
    async (request) => {
      const { userId } = requireUser(request);
      return getCardControls(app.db, userId, request.params.id);
    },
  );

  app.put(
    '/cards/:id/controls',
    {
      schema: {
        tags,
        summary: 'Replace the card’s spend controls (audited; moves no money). 400 `validation_error` names each field in `details`.',
        params: cardParams,
        body: cardControlsRequest,
        response: { 200: cardControlsResponse, 429: errorResponse, ...errors },
      },
    },
    async (request) => {
      const { userId } = requireUser(request);
      await limitMoney(app.db, 'cardControls', userId);
      const answer = await setCardControls(app, { userId, cardId: request.params.id, request: request.body, ip: request.ip });
      app.webhooks.kick();
      return answer;
    },
  );
};
