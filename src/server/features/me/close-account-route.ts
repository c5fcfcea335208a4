// Settings → Profile → Close account (decision 165). The user and the session come from the
// cookie, never from the request: an account can be closed only by someone signed in to it who
// entered its password (or used a passkey) in the last 5 minutes.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '../../../contracts/common';
import { deliverMailSoon } from '../../lib/mail';
import { clearSessionCookie, requireRecentPassword } from '../../plugins/session';
import { CLOSE_ACCOUNT_REAUTH_WINDOW_MS, closeAccount } from './close-account';

export const closeAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/me/close-account',
    {
      schema: {
        tags: ['me'],
        summary:
          'Close the account for good: refused (409 account_has_balance, balance_below_cashout, rebates_pending) while PayWeave owes its owner money; otherwise deletes the drafts (their holds are voided), closes the cards, ends the paid plan and every session, removes passkeys, two-factor and payout methods, and e-mails a confirmation. Needs the password (or a passkey) entered in this session within 5 minutes, else 403 reauthentication_required',
        security: [{ session: [] }],
        response: { 204: z.null().describe('No content: the account is closed and the session cookie cleared'), 401: errorResponse, 403: errorResponse, 409: errorResponse },
      },
    },
    async (request, reply) => {
      const auth = requireRecentPassword(request, CLOSE_ACCOUNT_REAUTH_WINDOW_MS);
      await closeAccount(app.db, app.adapters.mailer, { userId: auth.userId, currentSessionId: auth.sessionId, now: app.now(), ip: request.ip });
      // The voids of the drafts' holds and the e-mail were written with the closing: sent now.
      app.effects.kick();
      // And the processor is told the cards are closed (decision 170).
      app.cardStates.kick();
      deliverMailSoon(app);
      clearSessionCookie(request, reply);
      return reply.status(204).send(null);
    },
  );
};
