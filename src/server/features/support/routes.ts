// POST /api/support: the contact form (docs/decisions/010). In demo mode the web app sends
// nothing; a live server queues the message for the support mailbox through the outbox, so it is
// delivered (and retried) like every other e-mail. Card numbers pasted into it are removed first.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../contracts/common';
import { supportMessageRequest, supportMessageResponse } from '../../../contracts/support';
import { scrubCardNumbers } from '../../../core/card-scrubber';
import { limitOn } from '../../lib/rate-limit';
import { deliverMailSoon } from '../../lib/mail';
import { SUPPORT_EMAIL } from '../../lib/support-address';
import { SESSION_OPTIONAL } from '../../plugins/request-order';

/** Messages per IP address per hour: plenty for a person, useless for a spammer. */
export const SUPPORT_MESSAGES_PER_IP_PER_HOUR = 5;
const HOUR_SECONDS = 60 * 60;

export const supportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/support',
    {
      schema: {
        tags: ['system'],
        security: SESSION_OPTIONAL, summary: 'Send a message to support (queued for the support mailbox)',
        body: supportMessageRequest,
        response: { 202: supportMessageResponse, 400: errorResponse, 403: errorResponse, 429: errorResponse },
      },
    },
    async (request, reply) => {
      const { name, email, message } = request.body;
      // Counted outside any transaction: a refusal must still count.
      await limitOn(app.db, 'support:ip', {
        points: SUPPORT_MESSAGES_PER_IP_PER_HOUR,
        durationSeconds: HOUR_SECONDS,
        message: (wait) => `Too many messages. Please wait ${wait} or e-mail us directly.`,
      }).consume(request.ip);
      await app.adapters.mailer.enqueue({
        to: SUPPORT_EMAIL,
        // The body was scrubbed on arrival (plugins/card-scrubber.ts); scrubbing the whole e-mail
        // again costs nothing and keeps this route safe on its own.
        subject: scrubCardNumbers(`Support request from ${name}`),
        text: scrubCardNumbers([`From: ${name} <${email}>`, `Signed in: ${request.auth ? 'yes' : 'no'}`, '', message].join('\n')),
      });
      deliverMailSoon(app);
      return reply.status(202).send({ status: 'queued' });
    },
  );
};
