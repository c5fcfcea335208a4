// Passkeys API (docs/decisions/090). Thin handlers: the user id from the session, one service
// each. Each ceremony is two requests: `.../options` (a challenge, stored server-side) and the
// answer. Settings → Security: /me/passkeys; sign-in: /auth/passkey; the two-factor step:
// /auth/login/two-factor/passkey; re-authentication: /auth/reauthenticate/passkey.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '../../../contracts/common';
import { profile } from '../../../contracts/me';
import {
  addPasskeyRequest,
  authenticationOptions,
  passkey,
  passkeyList,
  passkeyParams,
  passkeyReauthenticateRequest,
  passkeySecondFactorOptionsRequest,
  passkeySecondFactorRequest,
  passkeySignInRequest,
  registrationOptions,
  renamePasskeyRequest,
} from '../../../contracts/passkeys';
import { PUBLIC } from '../../plugins/request-order';
import { requireRecentPassword, requireUser, setSessionCookie } from '../../plugins/session';
import { ADD_PASSKEY_REAUTH_WINDOW_MS, addPasskey, startAddingPasskey } from './add-passkey';
import { limitPasskeyOptions } from './limits';
import { listPasskeys, removePasskey, renamePasskey } from './list-passkeys';
import { bindToNewCookie, takeCookieBinding } from './passkey-challenges';
import { reauthenticateWithPasskey, startPasskeyReauthentication } from './reauthenticate-with-passkey';
import { relyingParty } from './relying-party';
import { completePasskeySecondFactor, completePasskeySignIn, startPasskeySecondFactor, startPasskeySignIn } from './sign-in-with-passkey';

const noContent = z.null().describe('No content');
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 409: errorResponse, 429: errorResponse } as const;
const session = [{ session: [] }];
const REAUTH = 'Needs the password (or a passkey) entered in this session within 5 minutes, else 403 reauthentication_required';

export const passkeyRoutes: FastifyPluginAsyncZod = async (app) => {
  const rp = relyingParty(app.config);

  // ---- Settings → Security ----------------------------------------------------------------------
  app.get(
    '/me/passkeys',
    { schema: { tags: ['me'], summary: 'The signed-in user’s passkeys, oldest first (name, added, last used)', security: session, response: { 200: passkeyList, 401: errorResponse } } },
    async (request) => {
      const auth = requireUser(request);
      return { passkeys: await listPasskeys(app.db, auth.userId) };
    },
  );

  app.post(
    '/me/passkeys/options',
    {
      schema: {
        tags: ['me'],
        summary: `Start adding a passkey: WebAuthn creation options for navigator.credentials.create (challenge valid 5 minutes, bound to this session). ${REAUTH}`,
        security: session,
        response: { 200: registrationOptions, ...errors },
      },
    },
    async (request) => {
      const auth = requireRecentPassword(request, ADD_PASSKEY_REAUTH_WINDOW_MS);
      return startAddingPasskey(app.db, { userId: auth.userId, sessionId: auth.sessionId, rp, now: app.now() });
    },
  );

  app.post(
    '/me/passkeys',
    {
      schema: {
        tags: ['me'],
        summary: `Add a passkey: its name and the browser's answer to the options (at most 10 per account; audited). ${REAUTH}`,
        security: session,
        body: addPasskeyRequest,
        response: { 201: passkey, ...errors },
      },
    },
    async (request, reply) => {
      const auth = requireRecentPassword(request, ADD_PASSKEY_REAUTH_WINDOW_MS);
      const created = await addPasskey(app.db, {
        userId: auth.userId,
        sessionId: auth.sessionId,
        name: request.body.name,
        credential: request.body.credential,
        rp,
        now: app.now(),
        ip: request.ip,
        log: request.log,
      });
      return reply.status(201).send(created);
    },
  );

  app.patch(
    '/me/passkeys/:id',
    {
      schema: {
        tags: ['me'],
        summary: 'Rename a passkey',
        security: session,
        params: passkeyParams,
        body: renamePasskeyRequest,
        response: { 200: passkey, 404: errorResponse, ...errors },
      },
    },
    async (request) => {
      const auth = requireUser(request);
      return renamePasskey(app.db, { userId: auth.userId, passkeyId: request.params.id, name: request.body.name, now: app.now(), ip: request.ip });
    },
  );

  app.delete(
    '/me/passkeys/:id',
    {
      schema: {
        tags: ['me'],
        summary: `Remove a passkey (409 last_sign_in_method when it is the account's only way to sign in; audited). ${REAUTH}`,
        security: session,
        params: passkeyParams,
        response: { 204: noContent, 404: errorResponse, ...errors },
      },
    },
    async (request, reply) => {
      const auth = requireRecentPassword(request, ADD_PASSKEY_REAUTH_WINDOW_MS);
      await removePasskey(app.db, { userId: auth.userId, passkeyId: request.params.id, now: app.now(), ip: request.ip });
      return reply.status(204).send(null);
    },
  );

  // ---- Sign-in without a password -------------------------------------------------------------
  app.post(
    '/auth/passkey/options',
    {
      schema: {
        tags: ['auth'],
        security: PUBLIC,
        summary: 'Start signing in with a passkey: WebAuthn request options naming no account (discoverable credentials); the challenge is bound to an HttpOnly cookie and valid 5 minutes',
        response: { 200: authenticationOptions, ...errors },
      },
    },
    async (request, reply) => {
      const now = app.now();
      await limitPasskeyOptions(app.db, { ip: request.ip, now });
      const binding = bindToNewCookie(request, reply);
      return startPasskeySignIn(app.db, { binding, rp, now });
    },
  );

  app.post(
    '/auth/passkey',
    {
      schema: {
        tags: ['auth'],
        security: PUBLIC,
        summary: 'Sign in with a passkey: the browser’s answer to the options; a new session cookie (remember-me keeps it 30 days). Enough on its own with two-factor sign-in on',
        body: passkeySignInRequest,
        response: { 200: profile, ...errors },
      },
    },
    async (request, reply) => {
      const signedIn = await completePasskeySignIn(app.db, {
        binding: takeCookieBinding(request, reply),
        credential: request.body.credential,
        rememberMe: request.body.rememberMe,
        rp,
        now: app.now(),
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        previousSessionId: request.auth?.sessionId,
        log: request.log,
      });
      setSessionCookie(request, reply, signedIn.session);
      return reply.status(200).send(signedIn.profile);
    },
  );

  // ---- The second step of a password sign-in --------------------------------------------------
  app.post(
    '/auth/login/two-factor/passkey/options',
    {
      schema: {
        tags: ['auth'],
        security: PUBLIC,
        summary: 'Second sign-in step with a passkey instead of a code: request options listing the account’s passkeys (409 no_passkeys without one)',
        body: passkeySecondFactorOptionsRequest,
        response: { 200: authenticationOptions, ...errors },
      },
    },
    async (request, reply) => {
      const now = app.now();
      await limitPasskeyOptions(app.db, { ip: request.ip, now });
      const binding = bindToNewCookie(request, reply);
      return startPasskeySecondFactor(app.db, { challengeId: request.body.challengeId, binding, rp, now });
    },
  );

  app.post(
    '/auth/login/two-factor/passkey',
    {
      schema: {
        tags: ['auth'],
        security: PUBLIC,
        summary: 'Complete the second sign-in step with the passkey’s answer; sets the session cookie',
        body: passkeySecondFactorRequest,
        response: { 200: profile, ...errors },
      },
    },
    async (request, reply) => {
      const signedIn = await completePasskeySecondFactor(app.db, {
        challengeId: request.body.challengeId,
        binding: takeCookieBinding(request, reply),
        credential: request.body.credential,
        rp,
        now: app.now(),
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        previousSessionId: request.auth?.sessionId,
        log: request.log,
      });
      setSessionCookie(request, reply, signedIn.session);
      return reply.status(200).send(signedIn.profile);
    },
  );

  // ---- Re-authentication (card reveal and the other steps that ask for the password again) ----
  app.post(
    '/auth/reauthenticate/passkey/options',
    {
      schema: {
        tags: ['auth'],
        summary: 'Confirm it is you with a passkey instead of the password: request options listing your passkeys (409 no_passkeys without one)',
        security: session,
        response: { 200: authenticationOptions, ...errors },
      },
    },
    async (request) => {
      const auth = requireUser(request);
      return startPasskeyReauthentication(app.db, { userId: auth.userId, sessionId: auth.sessionId, rp, now: app.now() });
    },
  );

  app.post(
    '/auth/reauthenticate/passkey',
    {
      schema: {
        tags: ['auth'],
        summary: 'Confirm it is you with the passkey’s answer (counts as entering the password for 5 minutes); the session cookie is replaced',
        security: session,
        body: passkeyReauthenticateRequest,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      const auth = requireUser(request);
      const rotated = await reauthenticateWithPasskey(app.db, {
        userId: auth.userId,
        sessionId: auth.sessionId,
        credential: request.body.credential,
        rp,
        now: app.now(),
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        log: request.log,
      });
      setSessionCookie(request, reply, rotated);
      return reply.status(204).send(null);
    },
  );
};
