// The whole HTTP application as one Fastify plugin tree (fastify/demo style): tests build it
// with their own config and database and call `app.inject()`; main.ts only listens.
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { swaggerOptions, swaggerUiOptions } from './openapi';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import { projectRoot } from './lib/paths';
import { createSpaHtml, routePreloadsSchema } from './web/spa-html';
import { errorsPlugin, frameworkErrors, MAX_PARAM_LENGTH } from './plugins/errors';
import { securityPlugin } from './plugins/security';
import { cardScrubberPlugin } from './plugins/card-scrubber';
import { sessionPlugin } from './plugins/session';
import { requestOrderPlugin } from './plugins/request-order';
import { readCachePlugin } from './plugins/read-cache';
import { setRateLimitsDisabled } from './lib/rate-limit';
import { systemRoutes } from './features/system/routes';
import { authRoutes } from './features/auth/routes';
import { meRoutes } from './features/me/routes';
import { passkeyRoutes } from './features/passkeys/routes';
import { sessionRoutes } from './features/me/session-route';
import { supportRoutes } from './features/support/routes';
import { devRoutes } from './features/dev/routes';
import { combineRoutes } from './features/combines/routes';
import { cardRoutes } from './features/cards/routes';
import { dashboardRoutes } from './features/dashboard/routes';
import { historyRoutes } from './features/history/routes';
import { webhookRoutes } from './features/webhooks/routes';
import { createEventFeed } from './features/live/event-feed';
import { liveRoutes } from './features/live/routes';
import { cashoutRoutes } from './features/cashouts/routes';
import { payoutMethodRoutes } from './features/payout-methods/routes';
import { subscriptionRoutes } from './features/subscription/routes';
import { createAdapters, type Adapters } from './adapters';
import { createEffectDrain, type EffectDrain } from './effects/drain';
import { createCardStateSync, type CardStateSync } from './effects/card-states';
import { createWebhookDispatcher, type WebhookDispatcher } from './effects/webhook-dispatch';
import { createAfterAnswer, type AfterAnswer } from './lib/after-answer';


declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    db: Db;
    adapters: Adapters;
    /** Carries out committed money effects (captures, voids, payouts, rebates): decision 030. */
    effects: EffectDrain;
    /** Tells the card processor each card's state after the commit that changed it: decision 170. */
    cardStates: CardStateSync;
    /** Delivers committed events to the users' webhook endpoints, signed: decision 191. */
    webhooks: WebhookDispatcher;
    /** Work done after an answer has gone out (the password-reset e-mail): lib/after-answer.ts. */
    afterAnswer: AfterAnswer;
    /** The current time; tests may move it. */
    now(): Date;
  }
}

export type AppOptions = {
  config: Config;
  database: Database;
  adapters?: Partial<Adapters>;
  now?: () => Date;
  /** A pino logger; tests pass none and stay silent. */
  logger?: FastifyBaseLogger;
  serveWeb?: boolean;
  /** Where the built web app is (dist/web); tests point it at a stub to route as production does. */
  webRoot?: string;
};

const BODY_LIMIT_BYTES = 64 * 1024;

// Never let a secret reach the logs (logger.ts); kept here for the callers that import it from the app.
export { LOG_REDACT_PATHS } from './logger';

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
    },
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: trustProxyOption(options.config.trustProxy),
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors,
    requestTimeout: 30_000,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Only JSON bodies: a text/plain body is the classic cross-site "simple request".
  app.removeContentTypeParser('text/plain');

  app.decorate('config', options.config);
  app.decorate('database', options.database);
  app.decorate('db', options.database.db);
  app.decorate('adapters', { ...createAdapters(options.config, options.database.db), ...options.adapters });
  app.decorate('now', options.now ?? (() => new Date()));
  app.decorate(
    'effects',
    createEffectDrain({
      db: options.database.db,
      adapters: () => app.adapters,
      log: app.log,
      retryBaseMs: options.config.effectRetryBaseMs,
      leaseMs: options.config.effectLeaseMs,
      // A payout recorded done wrote its cashout.paid or rebate.paid event (decision 191).
      eventsWritten: () => app.webhooks.kick(),
    }),
  );
  // A drain in flight finishes its calls and records their outcomes before the database closes.
  app.addHook('onClose', () => app.effects.idle());
  app.decorate('cardStates', createCardStateSync({ db: options.database.db, adapters: () => app.adapters, log: app.log, retryBaseMs: options.config.effectRetryBaseMs, leaseMs: options.config.effectLeaseMs }));
  app.addHook('onClose', () => app.cardStates.idle());
  app.decorate('webhooks', createWebhookDispatcher({ db: options.database.db, config: options.config, mailer: () => app.adapters.mailer, log: app.log, now: () => app.now() }));
  app.addHook('onClose', () => app.webhooks.idle());
  const liveFeed = createEventFeed({ db: options.database.db, now: () => app.now(), log: app.log });
  // Before the server closes: it waits for every connection to end, and a stream would not.
  app.addHook('preClose', async () => liveFeed.close());
  app.decorate('afterAnswer', createAfterAnswer(app.log));
  app.addHook('onClose', () => app.afterAnswer.idle());
  setRateLimitsDisabled(options.config.rateLimitDisabled);
  if (options.config.rateLimitDisabled) app.log.warn('RATE_LIMIT_DISABLED=true: sign-in, registration and reset are not rate-limited (benchmarks only)');

  // Paying a new BNPL rebate at once (when the user has a preferred payout method) is a
  // completion hook that payoutMethodRoutes registers, once per process.

  await app.register(errorsPlugin);
  await app.register(cardScrubberPlugin);
  await app.register(securityPlugin);
  await app.register(fastifyCookie);
  await app.register(sessionPlugin);
  // Before swagger and the routes: it completes every /api route's schema (security, statuses).
  await app.register(requestOrderPlugin);
  await app.register(readCachePlugin);
  await app.register(fastifySwagger, swaggerOptions);
  // The document for people at /api/docs, every file from the package (decision 120).
  await app.register(fastifySwaggerUi, swaggerUiOptions);

  await app.register(
    async (api) => {
      await api.register(systemRoutes);
      await api.register(cashoutRoutes);
      await api.register(payoutMethodRoutes);
      await api.register(subscriptionRoutes);
      await api.register(authRoutes);
      await api.register(meRoutes);
      await api.register(passkeyRoutes);
      await api.register(sessionRoutes);
      await api.register(supportRoutes);
      await api.register(devRoutes);
      await api.register(combineRoutes);
      await api.register(cardRoutes);
      await api.register(dashboardRoutes);
      await api.register(historyRoutes);
      await api.register(webhookRoutes);
      await api.register(liveRoutes(liveFeed));
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    },
    { prefix: '/api' },
  );

  const webRoot = options.webRoot ?? path.join(projectRoot, 'dist', 'web');
  if ((options.serveWeb ?? true) && existsSync(path.join(webRoot, 'index.html'))) {
    await registerWeb(app, webRoot);
  }
  return app;
}

async function registerWeb(app: FastifyInstance, webRoot: string) {
  const spaHtml = loadSpaHtml(webRoot);
  await app.register(fastifyStatic, {
    root: webRoot,
    wildcard: false,
    index: false,
    // dist/web holds .br and .gz copies of its text assets (scripts/precompress-web.mjs, run by
    // build:web): browsers that accept them get them; the others get the original file.
    preCompressed: true,
    setHeaders(reply, filePath) {
      // Hashed assets never change; index.html must always be fresh so new deploys are picked up.
      reply.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  // History fallback: every GET that is not the API or a file gets the SPA, which routes itself.
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const urlPath = decodeURIComponent(request.url.split('?')[0] ?? '/');
    if (urlPath.startsWith('/api/')) return reply.callNotFound();
    const candidate = path.join(webRoot, path.normalize(urlPath));
    if (candidate.startsWith(webRoot) && urlPath !== '/' && existsSync(candidate) && !candidate.endsWith(path.sep)) {
      return reply.sendFile(path.relative(webRoot, candidate));
    }
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(spaHtml(urlPath));
  });
}

/** index.html with each route's preload links (route-preloads.json is written by build:web). */
function loadSpaHtml(webRoot: string): (urlPath: string) => string {
  const indexHtml = readFileSync(path.join(webRoot, 'index.html'), 'utf8');
  const preloadsFile = path.join(webRoot, 'route-preloads.json');
  const routes = existsSync(preloadsFile) ? routePreloadsSchema.parse(JSON.parse(readFileSync(preloadsFile, 'utf8'))) : [];
  return createSpaHtml(indexHtml, routes);
}

/** A hop count means "believe that many proxies nearest to us" (what proxy-addr does for a number). */
function trustProxyOption(setting: Config['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting;
}
