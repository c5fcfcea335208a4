// Settings → Security → Two-factor authentication (docs/decisions/014). Thin handlers: the user id
// comes from the session, the services in two-factor-settings.ts do the work.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '../../../contracts/common';
import {
  recoveryCodesResponse,
  regenerateRecoveryCodesRequest,
  twoFactorDisableRequest,
  twoFactorEnableRequest,
  twoFactorSetupResponse,
  twoFactorStatusResponse,
} from '../../../contracts/two-factor';
import { requireRecentPassword, requireUser, rotateSession } from '../../plugins/session';
import { deliverMailSoon } from '../../lib/mail';
import { totpKey } from '../auth';
import {
  TWO_FACTOR_SETUP_REAUTH_WINDOW_MS,
  disableTwoFactor,
  enableTwoFactor,
  regenerateRecoveryCodes,
  startTwoFactorSetup,
  twoFactorStatus,
} from './two-factor-settings';

const tags = ['me'];
const security = [{ session: [] }];
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 409: errorResponse, 429: errorResponse } as const;

export const twoFactorRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/me/two-factor',
    { schema: { tags, summary: 'Whether two-factor sign-in is on, and how many unused recovery codes are left', security, response: { 200: twoFactorStatusResponse, 401: errorResponse } } },
    async (request) => {
      const auth = requireUser(request);
      return twoFactorStatus(app.db, auth.userId);
    },
  );

  app.post(
    '/me/two-factor/setup',
    {
      schema: {
        tags,
        summary:
          'Start turning two-factor sign-in on: a new TOTP secret (base32) and its otpauth:// URI, pending until confirmed. Needs the password entered within 5 minutes (else 403 reauthentication_required)',
        security,
        response: { 200: twoFactorSetupResponse, ...errors },
      },
    },
    async (request) => {
      const auth = requireRecentPassword(request, TWO_FACTOR_SETUP_REAUTH_WINDOW_MS);
      return startTwoFactorSetup(app.db, { userId: auth.userId, key: totpKey(app.config.cardDataKey), now: app.now(), ip: request.ip });
    },
  );

  app.post(
    '/me/two-factor/enable',
    {
      schema: {
        tags,
        summary: 'Confirm the setup with a code from the app: two-factor sign-in is on, other sessions end, and the 10 recovery codes are returned (once)',
        security,
        body: twoFactorEnableRequest,
        response: { 200: recoveryCodesResponse, ...errors },
      },
    },
    async (request, reply) => {
      const auth = requireUser(request);
      const result = await enableTwoFactor(app.db, app.adapters.mailer, {
        userId: auth.userId,
        sessionId: auth.sessionId,
        code: request.body.code,
        key: totpKey(app.config.cardDataKey),
        now: app.now(),
        ip: request.ip,
        appUrl: app.config.appUrl,
      });
      // A code from the app proved the second factor again: re-authentication rotates the session.
      await rotateSession(request, reply, { passwordEntered: false });
      deliverMailSoon(app);
      return result;
    },
  );

  app.post(
    '/me/two-factor/disable',
    {
      config: { hashesPassword: true, perIpLimit: 'passwordCheck:ip' },
      schema: {
        tags,
        summary: 'Turn two-factor sign-in off (the current password and a code from the app or a recovery code)',
        security,
        body: twoFactorDisableRequest,
        response: { 204: z.null().describe('No content'), ...errors, 503: errorResponse },
      },
    },
    async (request, reply) => {
      const auth = requireUser(request);
      await disableTwoFactor(app.db, app.adapters.mailer, {
        userId: auth.userId,
        currentPassword: request.body.currentPassword,
        code: request.body.code,
        key: totpKey(app.config.cardDataKey),
        now: app.now(),
        ip: request.ip,
        appUrl: app.config.appUrl,
      });
      await rotateSession(request, reply, { passwordEntered: true });
      deliverMailSoon(app);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/me/two-factor/recovery-codes',
    {
      config: { hashesPassword: true, perIpLimit: 'passwordCheck:ip' },
      schema: {
        tags,
        summary: 'Replace the recovery codes with 10 new ones (needs the current password); returned once',
        security,
        body: regenerateRecoveryCodesRequest,
        response: { 200: recoveryCodesResponse, ...errors, 503: errorResponse },
      },
    },
    async (request, reply) => {
      const auth = requireUser(request);
      const result = await regenerateRecoveryCodes(app.db, app.adapters.mailer, {
        userId: auth.userId,
        currentPassword: request.body.currentPassword,
        key: totpKey(app.config.cardDataKey),
        now: app.now(),
        ip: request.ip,
        appUrl: app.config.appUrl,
      });
      await rotateSession(request, reply, { passwordEntered: true });
      deliverMailSoon(app);
      return result;
    },
  );
};
