// The web app's start-up probe. GET /api/me answers 401 when signed out, which is right for an
// API client but makes every public page log a failed request in the browser console; being
// signed out is a state, not an error, so this answers 200 either way.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessionState } from '../../../contracts/me';
import { loadProfile } from '../auth';
import { SESSION_OPTIONAL } from '../../plugins/request-order';

export const sessionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/session',
    { schema: { tags: ['me'], security: SESSION_OPTIONAL, summary: 'Whether a user is signed in, with their profile if so (never 401)', response: { 200: sessionState } } },
    async (request) => {
      const profile = request.auth ? await loadProfile(app.db, request.auth.userId, app.now()) : null;
      return { signedIn: profile !== null, profile };
    },
  );
};
