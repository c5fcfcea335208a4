// Keeps the read cache's card lists right (db/read-cache.ts, decision 017). A user's cards change
// only through that user's own requests (a combine, a cash-out, a purchase, a freeze) and the
// scheduled expiry job (which publishes its own changes). So after every state-changing API
// request of a signed-in user, whatever it did, their card list is forgotten: in onSend, after
// the handler's transaction has committed and before the answer leaves, so that the next page
// the user opens, on any instance, reads the cards again.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const readCachePlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onSend', (request, _reply, payload, done) => {
      if (request.auth && !READS.has(request.method)) app.database.changes.publish([{ kind: 'cards-of', userId: request.auth.userId }]);
      done(null, payload);
    });
  },
  { name: 'payweave-read-cache', dependencies: ['payweave-session'] },
);
