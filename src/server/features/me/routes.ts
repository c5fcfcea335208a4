// The signed-in user's own account. Every handler reads the user id from the session,
// never from the request, so one user's session can only ever reach that user's data.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { changeEmailRequest, changePasswordRequest } from '../../../contracts/auth';
import { errorResponse } from '../../../contracts/common';
import { profile } from '../../../contracts/me';
import { unauthorized } from '../../lib/errors';
import { requireUser, rotateSession } from '../../plugins/session';
import { deliverMailSoon } from '../../lib/mail';
import { changeEmail } from './change-email';
import { changePassword } from './change-password';
import { loadProfile } from '../auth';
import { closeAccountRoutes } from './close-account-route';
import { sessionListRoutes } from './session-list-routes';
import { twoFactorRoutes } from './two-factor-routes';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 409: errorResponse, 429: errorResponse } as const;

export const meRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(twoFactorRoutes);
  await app.register(sessionListRoutes);
  await app.register(closeAccountRoutes);

  app.get(
    '/me',
    { schema: { tags: ['me'], summary: 'The signed-in user’s profile (401 when signed out)', security: [{ session: [] }], response: { 200: profile, 401: errorResponse } } },
    async (request) => {
      const auth = requireUser(request);
      const found = await loadProfile(app.db, auth.userId, app.now());
      if (!found) throw unauthorized();
      return found;
    },
  );

  app.put(
    '/me/email',
    {
      config: { hashesPassword: true, perIpLimit: 'passwordCheck:ip' },
      schema: {
        tags: ['me'],
        summary: 'Change the sign-in e-mail (needs the current password)',
        security: [{ session: [] }],
        body: changeEmailRequest,
        response: { 200: profile, ...errors, 503: errorResponse },
      },
    },
    async (request, reply) => {
      const auth = requireUser(request);
      const updated = await changeEmail(app.db, app.adapters.mailer, {
        userId: auth.userId,
        email: request.body.email,
        currentPassword: request.body.currentPassword,
        now: app.now(),
        ip: request.ip,
        appUrl: app.config.appUrl,
      });
      // The password was entered again: re-authentication rotates the session (docs/rules.md#sessions).
      await rotateSession(request, reply, { passwordEntered: true });
      deliverMailSoon(app);
      return updated;
    },
  );

  app.put(
    '/me/password',
    {
      config: { hashesPassword: true, perIpLimit: 'passwordCheck:ip' },
      schema: {
        tags: ['me'],
        summary: 'Change the password (needs the current one); ends every other session',
        security: [{ session: [] }],
        body: changePasswordRequest,
        response: { 204: z.null().describe('No content'), ...errors, 503: errorResponse },
      },
    },
    async (request, reply) => {
      const auth = requireUser(request);
      await changePassword(app.db, app.adapters.mailer, {
        userId: auth.userId,
        sessionId: auth.sessionId,
        currentPassword: request.body.currentPassword,
        newPassword: request.body.newPassword,
        now: app.now(),
        ip: request.ip,
        appUrl: app.config.appUrl,
      });
      await rotateSession(request, reply, { passwordEntered: true });
      deliverMailSoon(app);
      return reply.status(204).send(null);
    },
  );
};
