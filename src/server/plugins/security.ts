// Security headers (docs/rules.md#csrf; decisions 076 and 130): helmet sets the standard ones from one
// options object, its middleware built once at start; the few it cannot express (Permissions-Policy,
// HSTS only over https, Cache-Control on API answers, the request id) are set beside it. The CSRF
// check's rule lives here too.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';

// CSP without inline scripts (Vite emits only external modules). Inline styles are allowed
// because the accessible primitives position popovers with style attributes.
export const HELMET_OPTIONS = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
    },
  },
  referrerPolicy: { policy: 'no-referrer' },
  xContentTypeOptions: true,
  xFrameOptions: { action: 'deny' },
  crossOriginOpenerPolicy: { policy: 'same-origin' },
  // Only over https, which helmet cannot tell: set below.
  strictTransportSecurity: false,
  // The headers PayWeave has not sent so far stay off, so the switch to helmet changes nothing a
  // browser sees (decision 076 lists them as candidates).
  crossOriginEmbedderPolicy: false,
  crossOriginResourcePolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
  xPoweredBy: false,
} as const;

const applyHelmet = helmet(HELMET_OPTIONS);

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const CSRF_MESSAGE = 'This request was refused because it did not come from PayWeave.';

function expectedOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.headers.host ?? ''}`;
}

// CSRF defence (docs/rules.md#csrf, OWASP "verify origin with standard headers"): a browser always
// sends Origin on a state-changing fetch or form post, so a foreign or null Origin is refused.
// Requests without Origin come from non-browser clients, which carry no ambient cookies from a
// victim's browser; Sec-Fetch-Site catches the rare browser that omits Origin.
export function isCrossSite(request: FastifyRequest): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const origin = request.headers.origin;
  if (origin !== undefined) return origin !== expectedOrigin(request);
  const fetchSite = request.headers['sec-fetch-site'];
  return fetchSite === 'cross-site' || fetchSite === 'same-site';
}

/** The headers helmet cannot express: the request id, Permissions-Policy, HSTS over https, no-store on the API. */
function setOwnSecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id);
  reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=()');
  if (request.protocol === 'https') {
    reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
  }
  // Every API answer may carry personal or card data: never cache it anywhere.
  if (isApiRequest(request)) reply.header('cache-control', 'no-store');
}

/** Every header of an answer, for the router's own errors (plugins/errors.ts), which skip the hooks. */
export function setSecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  applyHelmet(request.raw, reply.raw, (error?: unknown) => {
    if (error) throw error;
  });
  setOwnSecurityHeaders(request, reply);
}

/**
 * Whether a request is for the API, decided on the route the router matched (its normalised
 * path), never on the raw URL: `/%61pi/me` reaches GET /api/me, so it is an API request too
 * (docs/rules.md#security). A request that matched no route (a 404, an address that does not decode) counts
 * as one as well, so its answer is never cached either.
 */
export function isApiRequest(request: FastifyRequest): boolean {
  const route = routeUrlOf(request);
  return route === undefined || route.startsWith('/api/');
}

/** The matched route's path ('/api/me', '/api/cards/:id'), or undefined when none matched. */
export function routeUrlOf(request: FastifyRequest): string | undefined {
  // The router's own errors (plugins/errors.ts, frameworkErrors) come before any route is known.
  try {
    return request.routeOptions.url;
  } catch {
    return undefined;
  }
}

// The CSRF refusal itself runs in plugins/request-order.ts, after the session check (one order).
// A plain synchronous hook: every answer of every route passes here, so it costs no promise.
// (@fastify/helmet built helmet's middleware again for every request, parsing the CSP each time:
// decision 130.)
export const securityPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    setSecurityHeaders(request, reply);
    done();
  });
});
