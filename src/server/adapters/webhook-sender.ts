// Signed webhook delivery (Standard Webhooks): the secret, the signature headers, and one attempt
// to post a message. When to try again and what a failure means for the endpoint are the core's
// (core/webhook-schedule.ts); this only reports what happened, and never throws for a failed attempt.
import { randomBytes } from 'node:crypto';
import type { LookupAddress, LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { isDeliveredStatus, WEBHOOK_TIMEOUT_MS } from '../../core/webhook-schedule';
import { checkWebhookUrl, type CheckedWebhookUrl, type ResolveAll } from './webhook-url';

export { checkWebhookUrl };
export type { CheckedWebhookUrl, ResolveAll, WebhookUrlCheck, WebhookUrlOptions } from './webhook-url';

/** How much of an answer's body is kept for the delivery log: enough to show a receiver's error. */
export const RESPONSE_START_BYTES = 1024;
const USER_AGENT = 'PayWeave-Webhooks/1';

/** A new signing secret: 32 random bytes (the specification allows 24 to 64), base64, `whsec_` first. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export type WebhookHeaders = { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string };

/**
 * The headers for one attempt: one `v1,` signature per secret, space-separated, so a receiver
 * still on the old secret during a rotation verifies too (core/webhook-schedule.ts signingSecrets).
 * `timestamp` is the attempt's, not the event's: receivers refuse old timestamps to stop replays.
 */
export function signWebhook(input: { secrets: string[]; id: string; timestamp: Date; body: string }): WebhookHeaders {
  if (input.secrets.length === 0) throw new Error('signWebhook needs at least one secret');
  return {
    'webhook-id': input.id,
    'webhook-timestamp': String(Math.floor(input.timestamp.getTime() / 1000)),
    'webhook-signature': input.secrets.map((secret) => new Webhook(secret).sign(input.id, input.timestamp, input.body)).join(' '),
  };
}

export type DeliveryResult = { ok: boolean; status: number | null; durationMs: number; responseStart: string; error?: string };

export type DeliveryInput = {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs?: number;
  live: boolean;
  allowLoopback: boolean;
  resolve?: ResolveAll;
};

/**
 * One attempt: the URL is checked again (an endpoint saved weeks ago may resolve elsewhere now),
 * then the request goes to the address that check accepted, with the URL's name as Host and TLS
 * server name. Redirects are not followed. A status line within `timeoutMs` (from the start, the
 * lookup included) decides; the body is read only until then, and only its start.
 */
export async function deliverWebhook(input: DeliveryInput): Promise<DeliveryResult> {
  const started = performance.now();
  const timeoutMs = input.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const result = (status: number | null, responseStart: string, error?: string): DeliveryResult => ({
    ok: isDeliveredStatus(status) && error === undefined,
    status,
    durationMs: Math.round(performance.now() - started),
    responseStart,
    ...(error === undefined ? {} : { error }),
  });
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  const timedOut = () => result(null, '', `No answer within ${timeoutMs / 1000} s.`);
  try {
    const aborted = new Promise<null>((resolve) => deadline.signal.addEventListener('abort', () => resolve(null)));
    const checked = await Promise.race([checkWebhookUrl(input.url, input), aborted]);
    if (checked === null) return timedOut();
    if (!checked.ok) return result(null, '', checked.error);
    const answer = await post(checked, input, deadline.signal);
    return result(answer.status, answer.responseStart, statusError(answer.status));
  } catch (error) {
    if (deadline.signal.aborted) return timedOut();
    return result(null, '', error instanceof Error ? error.message : String(error));
  } finally {
    clearTimeout(timer);
  }
}

function statusError(status: number): string | undefined {
  if (isDeliveredStatus(status)) return undefined;
  if (status >= 300 && status <= 399) return `Answered ${status}: redirects are not followed; update the webhook URL.`;
  if (status === 410) return 'Answered 410 Gone: the endpoint asks for no more webhooks.';
  return `Answered ${status}.`;
}

/** Hands the connection the address already checked, however it asks, so no second lookup happens. */
function pinnedLookup(address: string, family: 4 | 6) {
  return (_hostname: string, options: LookupOptions, callback: (error: null, address: string | LookupAddress[], family?: number) => void) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

function post(target: CheckedWebhookUrl, input: DeliveryInput, signal: AbortSignal): Promise<{ status: number; responseStart: string }> {
  const { url, hostname, address, family } = target;
  return new Promise((resolve, reject) => {
    let settle: (() => void) | null = null;
    const request = (url.protocol === 'https:' ? https : http).request({
      protocol: url.protocol,
      hostname,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT, ...input.headers, 'content-length': Buffer.byteLength(input.body) },
      lookup: pinnedLookup(address, family),
      ...(url.protocol === 'https:' && !isIP(hostname) ? { servername: hostname } : {}),
      // A connection of its own: a pooled one could have been opened to another address.
      agent: false,
      signal,
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      // The status is what counts; a body cut short by the deadline or the receiver is still logged.
      settle = () => resolve({ status: response.statusCode ?? 0, responseStart: Buffer.concat(chunks).subarray(0, RESPONSE_START_BYTES).toString('utf8') });
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= RESPONSE_START_BYTES) {
          settle?.();
          response.destroy();
        }
      });
      response.on('end', () => settle?.());
      response.on('error', () => settle?.());
      response.on('close', () => settle?.());
    });
    request.on('error', (error) => (settle ? settle() : reject(error)));
    request.end(input.body);
  });
}
