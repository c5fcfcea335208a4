// The demo mailbox (DECISIONS §6): in demo mode, e-mails that were not sent through SMTP stay in
// the outbox and are listed here, so a demo user can open the reset link. Outside demo mode the
// endpoint does not exist (404). Messages delivered by SMTP are never listed.
import { desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { mailboxResponse } from '../../../contracts/auth';
import { errorResponse } from '../../../contracts/common';
import { outbox } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { PUBLIC } from '../../plugins/request-order';

export const MAILBOX_LIMIT = 50;

export const devRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/dev/mailbox',
    { schema: { tags: ['dev'], security: PUBLIC, summary: 'Demo mode only: the newest stored e-mails', response: { 200: mailboxResponse, 404: errorResponse } } },
    async (request) => {
      if (!app.config.demoMode) throw notFound(`No such endpoint: GET ${request.url.split('?')[0]}`);
      const rows = await app.db
        .select({ id: outbox.id, to: outbox.toAddress, subject: outbox.subject, text: outbox.textBody, createdAt: outbox.createdAt })
        .from(outbox)
        .where(eq(outbox.status, 'stored'))
        .orderBy(desc(outbox.createdAt), desc(outbox.id))
        .limit(MAILBOX_LIMIT);
      return { messages: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })) };
    },
  );
};
