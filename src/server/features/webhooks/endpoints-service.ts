// A user's webhook endpoints (docs/rules.md#webhooks): register (the URL checked against the
// address rules, the secret shown once), list, delete, rotate the secret (the old one keeps
// signing for 24 h). Someone else's endpoint is not found.
import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import { MAX_WEBHOOK_ENDPOINTS, WEBHOOK_MESSAGES, type WebhookEndpoint } from '../../../contracts/webhooks';
import { WEBHOOK_SECRET_OVERLAP_MS } from '../../../core/webhook-schedule';
import { checkWebhookUrl, generateWebhookSecret, type ResolveAll } from '../../adapters/webhook-sender';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { users, webhookEndpoints } from '../../db/schema';
import { encryptWebhookSecret } from '../../effects/webhook-secrets';
import { audit } from '../../lib/audit';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { inTransaction } from '../../lib/transaction';

export type EndpointDeps = { db: Db; config: Pick<Config, 'demoMode' | 'webhooksAllowLoopback' | 'cardDataKey'>; now(): Date; resolveWebhookHost?: ResolveAll };
type EndpointRow = typeof webhookEndpoints.$inferSelect;

export function toEndpointView(row: EndpointRow, now: Date): WebhookEndpoint {
  const overlapEnds = row.rotatedAt && row.previousSecretEnc ? new Date(row.rotatedAt.getTime() + WEBHOOK_SECRET_OVERLAP_MS) : null;
  return {
    id: row.id,
    url: row.url,
    status: row.status as WebhookEndpoint['status'],
    disabledReason: row.disabledReason as WebhookEndpoint['disabledReason'],
    createdAt: row.createdAt.toISOString(),
    previousSecretValidUntil: overlapEnds && overlapEnds > now ? overlapEnds.toISOString() : null,
  };
}

export async function listEndpoints(db: Db, userId: string, now: Date): Promise<WebhookEndpoint[]> {
  const rows = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.userId, userId)).orderBy(asc(webhookEndpoints.createdAt));
  return rows.map((row) => toEndpointView(row, now));
}

export async function createEndpoint(deps: EndpointDeps, input: { userId: string; url: string; ip: string | null }): Promise<WebhookEndpoint & { secret: string }> {
  // Resolved before the transaction: a lookup is an outside call (docs/rules.md#outside-effects).
  const checked = await checkWebhookUrl(input.url, { live: !deps.config.demoMode, allowLoopback: deps.config.webhooksAllowLoopback, ...(deps.resolveWebhookHost ? { resolve: deps.resolveWebhookHost } : {}) });
  if (!checked.ok) throw badRequest(checked.error, [{ path: '/url', message: checked.error }]);
  const id = randomUUID();
  const secret = generateWebhookSecret();
  const now = deps.now();
  const row = await inTransaction(deps.db, async (tx) => {
    // Under the user's lock, so two registrations at once cannot both take the fifth place.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, input.userId)).for('update');
    const [{ count } = { count: 0 }] = await tx.select({ count: sql<number>`count(*)::int` }).from(webhookEndpoints).where(eq(webhookEndpoints.userId, input.userId));
    if (count >= MAX_WEBHOOK_ENDPOINTS) throw conflict(WEBHOOK_MESSAGES.limit, 'webhook_endpoint_limit_reached');
    const [inserted] = await tx
      .insert(webhookEndpoints)
      .values({ id, userId: input.userId, url: checked.url.href, secretEnc: encryptWebhookSecret(deps.config.cardDataKey, secret, id), createdAt: now })
      .returning();
    await audit(tx, { userId: input.userId, event: 'webhook_endpoint_created', ip: input.ip, details: { endpointId: id, url: checked.url.href }, at: now });
    return inserted!;
  });
  return { ...toEndpointView(row, now), secret };
}

export async function deleteEndpoint(deps: { db: Db; now(): Date }, input: { userId: string; endpointId: string; ip: string | null }): Promise<void> {
  await inTransaction(deps.db, async (tx) => {
    const [gone] = await tx
      .delete(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, input.endpointId), eq(webhookEndpoints.userId, input.userId)))
      .returning({ url: webhookEndpoints.url });
    if (!gone) throw notFound(WEBHOOK_MESSAGES.notFound);
    await audit(tx, { userId: input.userId, event: 'webhook_endpoint_deleted', ip: input.ip, details: { endpointId: input.endpointId, url: gone.url }, at: deps.now() });
  });
}

/**
 * A new secret, shown once; the one it replaces keeps signing for 24 h (core/webhook-schedule.ts
 * signingSecrets), so a receiver can switch without dropping a message. A rotation during that
 * overlap drops the oldest: only two secrets ever sign.
 */
export async function rotateSecret(deps: EndpointDeps, input: { userId: string; endpointId: string; ip: string | null }): Promise<WebhookEndpoint & { secret: string }> {
  const secret = generateWebhookSecret();
  const now = deps.now();
  const row = await inTransaction(deps.db, async (tx) => {
    const [updated] = await tx
      .update(webhookEndpoints)
      .set({
        previousSecretEnc: sql`${webhookEndpoints.secretEnc}`,
        secretEnc: encryptWebhookSecret(deps.config.cardDataKey, secret, input.endpointId),
        rotatedAt: now,
      })
      .where(and(eq(webhookEndpoints.id, input.endpointId), eq(webhookEndpoints.userId, input.userId)))
      .returning();
    if (!updated) throw notFound(WEBHOOK_MESSAGES.notFound);
    await audit(tx, { userId: input.userId, event: 'webhook_secret_rotated', ip: input.ip, details: { endpointId: input.endpointId }, at: now });
    return updated;
  });
  return { ...toEndpointView(row, now), secret };
}

/** The user's endpoint, or 404 (someone else's too: ids cannot be probed). */
export async function loadOwnedEndpoint(db: Db, userId: string, endpointId: string): Promise<EndpointRow> {
  const [row] = await db.select().from(webhookEndpoints).where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.userId, userId)));
  if (!row) throw notFound(WEBHOOK_MESSAGES.notFound);
  return row;
}
