// Helpers for the account tests: a small client that keeps a session cookie like a browser.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { SESSION_COOKIE } from '../../src/server/plugins/session';

export const STRONG_PASSWORD = 'Correct-Horse-9';
export const OTHER_STRONG_PASSWORD = 'Battery-Staple-42';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export type TestClient = {
  ip: string;
  cookie: string | undefined;
  request(method: Method, url: string, payload?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
};

export function sessionCookieOf(res: LightMyRequestResponse) {
  return res.cookies.find((c) => c.name === SESSION_COOKIE);
}

/** A browser-like client: one IP, keeps the session cookie it is given, sends a same-site Origin. */
export function client(app: FastifyInstance, ip: string): TestClient {
  const self: TestClient = {
    ip,
    cookie: undefined,
    async request(method, url, payload, headers = {}) {
      const res = await app.inject({
        method,
        url,
        remoteAddress: ip,
        headers: {
          host: 'localhost',
          ...(method === 'GET' ? {} : { origin: 'http://localhost' }),
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...(self.cookie ? { cookie: `${SESSION_COOKIE}=${self.cookie}` } : {}),
          ...headers,
        },
        ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
      });
      const set = sessionCookieOf(res);
      if (set) self.cookie = set.value === '' ? undefined : set.value;
      // What the server does after answering (the reset e-mail) is done before the test looks.
      await app.afterAnswer.idle();
      return res;
    },
  };
  return self;
}

export async function registerVia(c: TestClient, email: string, password = STRONG_PASSWORD) {
  return c.request('POST', '/api/auth/register', { email, password, confirmPassword: password, acceptTerms: true });
}

export async function loginVia(c: TestClient, email: string, password = STRONG_PASSWORD, rememberMe = false) {
  return c.request('POST', '/api/auth/login', { email, password, rememberMe });
}
