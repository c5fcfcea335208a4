// A browser-like client for the passkey tests: one IP, a same-site Origin, and a cookie jar that
// keeps every cookie it is given (the session and the passkey ceremony's), as a browser would.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { SESSION_COOKIE } from '../../src/server/plugins/session';
import { STRONG_PASSWORD } from './auth-client';
import type { SoftAuthenticator } from './soft-authenticator';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type JarClient = {
  ip: string;
  cookies: Map<string, string>;
  readonly session: string | undefined;
  request(method: Method, url: string, payload?: unknown): Promise<LightMyRequestResponse>;
};

export function jarClient(app: FastifyInstance, ip: string): JarClient {
  const cookies = new Map<string, string>();
  return {
    ip,
    cookies,
    get session() {
      return cookies.get(SESSION_COOKIE);
    },
    async request(method, url, payload) {
      const cookieHeader = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
      const res = await app.inject({
        method,
        url,
        remoteAddress: ip,
        headers: {
          host: 'localhost',
          ...(method === 'GET' ? {} : { origin: 'http://localhost' }),
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...(cookieHeader ? { cookie: cookieHeader } : {}),
        },
        ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
      });
      for (const set of res.cookies) {
        // By value and Max-Age only: the tests' clocks are not the wall clock Expires is judged by.
        const expired = set.value === '' || (set.maxAge !== undefined && set.maxAge <= 0);
        if (expired) cookies.delete(set.name);
        else cookies.set(set.name, set.value);
      }
      return res;
    },
  };
}

export async function registerWithJar(c: JarClient, email: string, password = STRONG_PASSWORD) {
  return c.request('POST', '/api/auth/register', { email, password, confirmPassword: password, acceptTerms: true });
}

/** Adds `authenticator` as a passkey of the signed-in user of `c`; returns the API's answer. */
export async function addPasskeyVia(c: JarClient, authenticator: SoftAuthenticator, name = 'My laptop') {
  const options = await c.request('POST', '/api/me/passkeys/options');
  if (options.statusCode !== 200) return options;
  return c.request('POST', '/api/me/passkeys', { name, credential: authenticator.register(options.json()) });
}

/** A usernameless sign-in with `authenticator`; returns the answer to the credential. */
export async function signInWithPasskeyVia(c: JarClient, authenticator: SoftAuthenticator, rememberMe = false) {
  const options = await c.request('POST', '/api/auth/passkey/options');
  if (options.statusCode !== 200) return options;
  return c.request('POST', '/api/auth/passkey', { credential: authenticator.authenticate(options.json()), rememberMe });
}
