// The demo mailbox (docs/rules.md#demo-mailbox): e-mails that were not sent through SMTP stay in the outbox and
// are listed here, so a newcomer running PayWeave on their own machine can open the reset link.
// Whoever reads another person's reset link owns that account, so the mailbox answers only
// requests from the machine itself: a loopback peer (the socket's own address, whatever
// TRUST_PROXY says), no forwarding header (a proxy on this machine relays strangers), and a Host
// that names this machine (decision 175: a page of another site whose name an attacker's DNS
// points at 127.0.0.1, "DNS rebinding", is read by the browser as that site's own, and its requests
// come from a loopback peer). Any other request, and every request outside demo mode, gets the
// router's 404: it does not exist.
import { and, desc, eq, ne } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { mailboxResponse } from '../../../contracts/auth';
import { errorResponse } from '../../../contracts/common';
import { PURGED_BODY } from '../../adapters/mailer';
import { outbox } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { PUBLIC } from '../../plugins/request-order';

export const MAILBOX_LIMIT = 50;

/** Headers a proxy adds for the client it relays; any of them means the request came from elsewhere. */
const FORWARDING_HEADERS = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  'x-forwarded-server',
  'x-real-ip',
  'x-client-ip',
  'x-cluster-client-ip',
  'true-client-ip',
  'cf-connecting-ip',
  'fastly-client-ip',
  'x-original-forwarded-for',
  'via',
];

/** 127.0.0.0/8, ::1 and their IPv4-mapped form (a dual-stack socket reports ::ffff:127.0.0.1). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const bare = address.toLowerCase().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare)) return bare.split('.').every((octet) => Number(octet) <= 255);
  return bare === '::1' || bare === '0:0:0:0:0:0:0:1';
}

/**
 * The name a Host header gives (no port, no brackets, lower case), or null when it is not one
 * host: `localhost:3000` → `localhost`, `[::1]:3000` → `::1`.
 */
function hostNameOf(host: string | undefined): string | null {
  if (!host) return null;
  const bracketed = host.match(/^\[([0-9a-f:.]+)\](?::\d{1,5})?$/i);
  if (bracketed?.[1]) return bracketed[1].toLowerCase();
  const plain = host.match(/^([a-z0-9.-]+)(?::\d{1,5})?$/i);
  return plain?.[1] ? plain[1].toLowerCase().replace(/\.$/, '') : null;
}

/**
 * Whether a Host header names this machine: `localhost` and its subdomains (which browsers never
 * ask DNS for, RFC 6761), a loopback address, or the host of APP_URL (a name the newcomer mapped to
 * this machine themselves). Any other name reached us through someone's DNS.
 */
export function namesThisMachine(host: string | undefined, appUrl: string): boolean {
  const name = hostNameOf(host);
  if (name === null) return false;
  if (name === 'localhost' || name.endsWith('.localhost') || isLoopbackAddress(name)) return true;
  return name === hostNameOf(new URL(appUrl).host);
}

/** Whether the request was made on this machine, by a client connected to us directly, to this machine's name. */
export function isFromThisMachine(request: FastifyRequest, appUrl: string): boolean {
  if (!isLoopbackAddress(request.raw.socket?.remoteAddress)) return false;
  if (!FORWARDING_HEADERS.every((name) => request.headers[name] === undefined)) return false;
  return namesThisMachine(request.headers.host, appUrl);
}

export const devRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/dev/mailbox',
    {
      schema: {
        tags: ['dev'],
        security: PUBLIC,
        summary: 'Demo mode, and only from the machine itself (loopback, no forwarding headers, a Host naming this machine): the newest stored e-mails',
        response: { 200: mailboxResponse, 404: errorResponse },
      },
    },
    async (request) => {
      if (!app.config.demoMode || !isFromThisMachine(request, app.config.appUrl)) throw notFound(`No such endpoint: GET ${request.routeOptions.url ?? '/api/dev/mailbox'}`);
      const rows = await app.db
        .select({ id: outbox.id, to: outbox.toAddress, subject: outbox.subject, text: outbox.textBody, createdAt: outbox.createdAt })
        .from(outbox)
        // A body deleted after 24 hours (adapters/mailer.ts) leaves nothing worth listing.
        .where(and(eq(outbox.status, 'stored'), ne(outbox.textBody, PURGED_BODY)))
        .orderBy(desc(outbox.createdAt), desc(outbox.id))
        .limit(MAILBOX_LIMIT);
      return { messages: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })) };
    },
  );
};
