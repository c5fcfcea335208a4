// Settings → Security → Signed-in devices (docs/decisions/164) and Recent security activity
// (decision 166). Thin handlers: the user and the current session come from the session cookie,
// never from the request.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '../../../contracts/common';
import { MAX_SECURITY_EVENTS, securityActivity } from '../../../contracts/security-activity';
import { sessionParams, signedInSessionList, signOutOthersResponse } from '../../../contracts/sessions';
import { requireRecentPassword, requireUser } from '../../plugins/session';
import { END_SESSIONS_REAUTH_WINDOW_MS, endOtherSessions, endSession } from './end-sessions';
import { listSessions } from './list-sessions';
import { recentSecurityEvents } from './security-activity';

const tags = ['me'];
const security = [{ session: [] }];
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse } as const;
const REAUTH = 'Needs the password (or a passkey) entered in this session within 5 minutes, else 403 reauthentication_required';

export const sessionListRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/me/sessions',
    {
      schema: {
        tags,
        summary: 'Where the signed-in user is signed in: the live sessions, newest activity first (device, partly masked address, which one is this)',
        security,
        response: { 200: signedInSessionList, 401: errorResponse },
      },
    },
    async (request) => {
      const auth = requireUser(request);
      return { sessions: await listSessions(app.db, { userId: auth.userId, currentSessionId: auth.sessionId, now: app.now() }) };
    },
  );

  app.get(
    '/me/security-activity',
    {
      schema: {
        tags,
        summary: `The account's ${MAX_SECURITY_EVENTS} newest security events (sign-ins and failed ones, password, e-mail, two-factor and passkey changes, devices signed out, card numbers shown), newest first, each with the address partly masked`,
        security,
        response: { 200: securityActivity, 401: errorResponse },
      },
    },
    async (request) => {
      const auth = requireUser(request);
      return { events: await recentSecurityEvents(app.db, auth.userId) };
    },
  );

  app.delete(
    '/me/sessions/:id',
    {
      schema: {
        tags,
        summary: `Sign out one of the user's other devices: that session ends at once on every instance (404 when it is not one of theirs; 409 current_session for this one: use Logout; audited). ${REAUTH}`,
        security,
        params: sessionParams,
        response: { 204: z.null().describe('No content'), ...errors, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request, reply) => {
      const auth = requireRecentPassword(request, END_SESSIONS_REAUTH_WINDOW_MS);
      await endSession(app.db, { userId: auth.userId, currentSessionId: auth.sessionId, sessionId: request.params.id, now: app.now(), ip: request.ip });
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/me/sessions/sign-out-others',
    {
      schema: {
        tags,
        summary: `Sign out every other device: all the user's sessions but this one end at once on every instance (audited). ${REAUTH}`,
        security,
        response: { 200: signOutOthersResponse, ...errors },
      },
    },
    async (request) => {
      const auth = requireRecentPassword(request, END_SESSIONS_REAUTH_WINDOW_MS);
      return { ended: await endOtherSessions(app.db, { userId: auth.userId, currentSessionId: auth.sessionId, now: app.now(), ip: request.ip }) };
    },
  );
};
