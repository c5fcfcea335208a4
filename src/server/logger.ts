// The one pino logger (main.ts builds it; tests build it with their own stream). Nothing secret
// reaches a log line, whatever a future log call includes (docs/rules.md#never-logged):
//  - secret fields by name (passwords, card numbers, CVVs, tokens) at any depth of a logged
//    object or error: our own walk below (pino applies no formatter to a child logger's
//    bindings, so the linter asks for them to go through it too); a request's and a reply's
//    cookie and authorization headers: pino's redaction (decision 156);
//  - token-bearing URLs anywhere (a request line `/reset-password/confirm?token=...`, a link in a
//    logged object or message): the token's value becomes [redacted];
//  - card numbers in any logged text: the card scrubber (core/card-scrubber.ts).
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { scrubCardNumbers } from '../core/card-scrubber';

// No path starts with a wildcard: pino would then pass every value of every log line, and the
// bindings of the child logger Fastify makes for each request, through its redaction (decision 156).
export const LOG_REDACT_PATHS = ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'];

/**
 * Fields whose value is a secret, wherever they sit in a logged object (`payTo`: a payout
 * destination in full, decision 168; and its parts on their own, the bank account and routing
 * numbers, decision 171: a routing number is public, but no log needs it).
 */
export const SECRET_FIELDS: ReadonlySet<string> = new Set(['password', 'currentPassword', 'newPassword', 'confirmPassword', 'cardNumber', 'cvv', 'token', 'payTo', 'accountNumber', 'routingNumber']);

export const REDACTED = '[redacted]';

/** Query or fragment parameters whose value is a credential (a reset or verification link, a code). */
const TOKEN_PARAMETER = /([?&#;](?:[\w.-]*token|code|challenge(?:_?id)?|challengeId|secret|key|signature|sig|otp|ticket)=)[^&#\s"'<>]*/gi;

/** `...?token=abc&x=1` → `...?token=[redacted]&x=1`, and card numbers removed; other text unchanged. */
export function redactLogText(text: string): string {
  return scrubCardNumbers(text.replace(TOKEN_PARAMETER, `$1${REDACTED}`));
}

const MAX_WALK_DEPTH = 8;

/** A copy of a logged object: secret fields censored, every other string passed through redactLogText (plain data only). */
export function redactLogObject(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactLogText(value);
  if (value === null || typeof value !== 'object' || depth >= MAX_WALK_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => redactLogObject(item, depth + 1));
  // Class instances (a request, an error) are left to their serializers below.
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = SECRET_FIELDS.has(key) ? REDACTED : redactLogObject(item, depth + 1);
  return out;
}

type RequestLike = { method?: string; url?: string; host?: string; ip?: string; socket?: { remotePort?: number } };

export function createLogger(options: { level: string; stream?: DestinationStream }): Logger {
  const loggerOptions: LoggerOptions = {
    level: options.level,
    redact: { paths: LOG_REDACT_PATHS, censor: REDACTED },
    serializers: {
      // Fastify logs every request with its URL: a reset link's token must not be in it.
      req: (request: RequestLike) => ({
        method: request.method,
        url: request.url === undefined ? undefined : redactLogText(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
      // Copied into a plain object, so that the walk reaches fields set on the error (`err.password`).
      err: (error: Error) => redactLogObject({ ...pino.stdSerializers.err(error) }) as ReturnType<typeof pino.stdSerializers.err>,
    },
    formatters: {
      log: (object) => redactLogObject(object) as Record<string, unknown>,
    },
    hooks: {
      // The message string too (`log.info('sent ' + link)`), and any printf-style arguments.
      logMethod(args, method) {
        return method.apply(this, args.map((arg) => (typeof arg === 'string' ? redactLogText(arg) : arg)) as Parameters<typeof method>);
      },
    },
  };
  return options.stream ? pino(loggerOptions, options.stream) : pino(loggerOptions);
}
