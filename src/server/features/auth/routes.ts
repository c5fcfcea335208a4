// Accounts API. Thin handlers: rate limit, call one service, set the cookie, answer.
import { deliverMail, deliverMailSoon } from '../../lib/mail';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AUTH_MESSAGES,
  loginRequest,
  loginResponse,
  passwordResetAccepted,
  passwordResetConfirmRequest,
  passwordResetRequest,
  reauthenticateRequest,
  registerRequest,
} from '../../../contracts/auth';
import { errorResponse } from '../../../contracts/common';
import { TWO_FACTOR_MESSAGES, loginTwoFactorRequest, twoFactorUnlockRequest, twoFactorUnlockResponse } from '../../../contracts/two-factor';
import { profile } from '../../../contracts/me';
import { audit } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import { clearSessionCookie, deleteSession, requireUser, rotateSession, setSessionCookie } from '../../plugins/session';
import { checkCurrentPassword } from './check-password';
import { limitByIpAndEmail, limitSignIn, limitTokenChecks } from './limits';
import { confirmPasswordReset, requestPasswordReset } from './password-reset';
import { registerUser } from './register-user';
import { signIn } from './sign-in';
import { totpKey } from './two-factor';
import { completeTwoFactorSignIn } from './two-factor-sign-in';
import { unlockTwoFactor } from './two-factor-lock';
import { PUBLIC, SESSION_OPTIONAL } from '../../plugins/request-order';

const noContent = z.null().describe('No content');
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 409: errorResponse, 429: errorResponse } as const;
/** Where a password (or a legacy recovery code) is hashed or checked: the argon2id pool may be full (decision 080). */
const hashing = { 503: errorResponse } as const;

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The daily cap was reached: the owner's e-mail goes out now rather than at the next scheduled run. */
  const mailIfLocked = (error: unknown): never => {
    if (error instanceof AppError && error.code === 'two_factor_locked') deliverMailSoon(app);
    throw error;
  };

  app.post(
    '/auth/register',
    {
      config: { hashesPassword: true, perIpLimit: 'register:ip' },
      schema: {
        tags: ['auth'],
        security: PUBLIC, summary: 'Create an account and sign in (sets the session cookie)',
        body: registerRequest,
        response: { 201: profile, ...errors, ...hashing },
      },
    },
    async (request, reply) => {
      const now = app.now();
      await limitByIpAndEmail(app.db, { action: 'register', ip: request.ip, email: request.body.email });
      const { profile: created, session } = await registerUser(app.db, {
        email: request.body.email,
        password: request.body.password,
        now,
        demoMode: app.config.demoMode,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      setSessionCookie(request, reply, session);
      return reply.status(201).send(created);
    },
  );

  app.post(
    '/auth/login',
    {
      config: { hashesPassword: true, perIpLimit: 'login:ip' },
      schema: {
        tags: ['auth'],
        security: PUBLIC, summary:
          'Sign in (a new session cookie; remember-me keeps it 30 days). With two-factor sign-in on, a right password answers {twoFactorRequired, challengeId} and no session: continue with POST /api/auth/login/two-factor',
        body: loginRequest,
        response: { 200: loginResponse, ...errors, ...hashing },
      },
    },
    async (request, reply) => {
      const now = app.now();
      const failures = await limitSignIn(app.db, { ip: request.ip, email: request.body.email });
      const result = await signIn(app.db, {
        failures,
        email: request.body.email,
        password: request.body.password,
        rememberMe: request.body.rememberMe,
        now,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        previousSessionId: request.auth?.sessionId,
        // The connection closed before the answer: nobody will read it (argon2-pool.ts).
        clientGone: () => reply.raw.closed && !reply.raw.writableFinished,
      });
      if ('challengeId' in result) {
        return reply.status(200).send({ twoFactorRequired: true, challengeId: result.challengeId, ...(result.passkeyAvailable ? { passkeyAvailable: true as const } : {}) });
      }
      setSessionCookie(request, reply, result.session);
      return reply.status(200).send(result.profile);
    },
  );

  app.post(
    '/auth/login/two-factor',
    {
      config: { perIpLimit: 'twoFactor:ip' },
      schema: {
        tags: ['auth'],
        security: PUBLIC, summary:
          'Second sign-in step: a code from the authenticator app or a single-use recovery code (challenge valid 5 minutes, 5 attempts); sets the session cookie',
        body: loginTwoFactorRequest,
        response: { 200: profile, ...errors, ...hashing },
      },
    },
    async (request, reply) => {
      const { profile: signedIn, session } = await completeTwoFactorSignIn(app.db, app.adapters.mailer, {
        appUrl: app.config.appUrl,
        challengeId: request.body.challengeId,
        code: request.body.code,
        key: totpKey(app.config.cardDataKey),
        now: app.now(),
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        previousSessionId: request.auth?.sessionId,
      }).catch(mailIfLocked);
      setSessionCookie(request, reply, session);
      return reply.status(200).send(signedIn);
    },
  );

  app.post(
    '/auth/two-factor/unlock',
    {
      config: { perIpLimit: 'token:ip' },
      schema: {
        tags: ['auth'],
        security: PUBLIC,
        summary:
          'The e-mailed link after the daily cap of wrong two-factor codes (decision 083): codes from the authenticator app work again (single use, 1 hour)',
        body: twoFactorUnlockRequest,
        response: { 200: twoFactorUnlockResponse, ...errors },
      },
    },
    async (request, reply) => {
      await unlockTwoFactor(app.db, { token: request.body.token, now: app.now(), ip: request.ip });
      return reply.status(200).send({ message: TWO_FACTOR_MESSAGES.unlocked });
    },
  );

  app.post(
    '/auth/logout',
    { schema: { tags: ['auth'], security: SESSION_OPTIONAL, summary: 'Sign out: ends the session server-side and clears the cookie', response: { 204: noContent, 403: errorResponse } } },
    async (request, reply) => {
      if (request.auth) {
        await deleteSession(app.db, request.auth.sessionId);
        await audit(app.db, { userId: request.auth.userId, event: 'sign_out', ip: request.ip, at: app.now() });
      }
      clearSessionCookie(request, reply);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/auth/password-reset',
    {
      config: { perIpLimit: 'passwordReset:ip' },
      schema: {
        tags: ['auth'],
        security: PUBLIC, summary: 'Ask for a password-reset e-mail (the same answer, in the same time, whether or not the account exists; the e-mail is queued after the answer)',
        body: passwordResetRequest,
        response: { 202: passwordResetAccepted, ...errors },
      },
    },
    async (request, reply) => {
      const now = app.now();
      await limitByIpAndEmail(app.db, { action: 'passwordReset', ip: request.ip, email: request.body.email });
      // The same answer in the same time for every address (docs/rules.md#csrf): both paths have done
      // exactly the same work so far; looking the address up, the link and the e-mail come after.
      const input = { email: request.body.email, now, ip: request.ip, appUrl: app.config.appUrl };
      app.afterAnswer.run('password-reset', async () => {
        // Awaited inside the task, so that the e-mail is part of the work after the answer.
        if (await requestPasswordReset(app.db, app.adapters.mailer, input)) await deliverMail(app);
      });
      return reply.status(202).send({ message: AUTH_MESSAGES.resetRequested });
    },
  );

  app.post(
    '/auth/password-reset/confirm',
    {
      config: { hashesPassword: true, perIpLimit: 'token:ip' },
      schema: {
        tags: ['auth'],
        security: PUBLIC, summary: 'Set a new password with the e-mailed token (single use, 1 hour); ends every session of the account',
        body: passwordResetConfirmRequest,
        response: { 204: noContent, ...errors, ...hashing },
      },
    },
    async (request, reply) => {
      const now = app.now();
      await limitTokenChecks(app.db, { ip: request.ip });
      const { userId } = await confirmPasswordReset(app.db, app.adapters.mailer, {
        token: request.body.token,
        password: request.body.password,
        now,
        ip: request.ip,
        appUrl: app.config.appUrl,
      });
      deliverMailSoon(app);
      // This browser's own session of that account has just ended with the others.
      if (request.auth?.userId === userId) clearSessionCookie(request, reply);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/auth/reauthenticate',
    {
      config: { hashesPassword: true, perIpLimit: 'passwordCheck:ip' },
      schema: {
        tags: ['auth'],
        summary: 'Confirm the password again (before revealing card details); the session is rotated: a new cookie, the old one ends',
        body: reauthenticateRequest,
        response: { 204: noContent, ...errors, ...hashing },
      },
    },
    async (request, reply) => {
      const auth = requireUser(request);
      const now = app.now();
      await checkCurrentPassword(app.db, {
        userId: auth.userId,
        password: request.body.password,
        now,
        ip: request.ip,
        failureEvent: 'reauthentication_failed',
        wrongMessage: AUTH_MESSAGES.passwordWrong,
      });
      // A new session (new token) with the password marked as entered; the old cookie is dead.
      await rotateSession(request, reply, { passwordEntered: true });
      await audit(app.db, { userId: auth.userId, event: 'reauthenticated', ip: request.ip, at: now });
      return reply.status(204).send(null);
    },
  );
};
