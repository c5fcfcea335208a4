// Events (docs/rules.md#webhooks, decision 191): written by the statement or transaction that makes
// the change they report, as an outbox row, so an event exists exactly when its change committed and
// a refused, rolled-back or replayed request reports nothing. The webhook dispatcher delivers them
// after the commit (effects/webhook-dispatch.ts).
import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { EventType } from '../../contracts/webhooks';
import type { DbOrTx } from '../db/client';
import { events } from '../db/schema';

export type NewEvent = { id: string; userId: string; type: EventType | 'webhook.test'; createdAt: Date; data: Record<string, unknown> };

/**
 * `evt_` and a random UUID's hex: opaque, unique without asking the database, and the same form
 * as the ids the drain's statement makes in SQL (effects/drain.ts).
 */
export function newEventId(): string {
  return `evt_${randomUUID().replaceAll('-', '')}`;
}

/** The same id, made by a statement. */
export const NEW_EVENT_ID_SQL = sql`'evt_' || replace(gen_random_uuid()::text, '-', '')`;

/**
 * An event; `data` is the object as the API shows it (a view function's result), which never holds
 * a card number or CVV (docs/rules.md#never-logged).
 */
export function newEvent(userId: string, type: NewEvent['type'], data: object, createdAt: Date): NewEvent {
  return { id: newEventId(), userId, type, createdAt, data: data as Record<string, unknown> };
}

/** Writes events in the caller's transaction. */
export async function insertEvents(tx: DbOrTx, list: readonly NewEvent[]): Promise<void> {
  if (list.length === 0) return;
  await tx.insert(events).values(list.map((e) => ({ id: e.id, userId: e.userId, type: e.type, createdAt: e.createdAt, data: e.data })));
}

/**
 * The events as a WITH clause (`event_rows`) of a larger statement, written only where `guard`
 * holds (say, only with the debit). Lists travel as arrays, so the text is fixed; the placeholders
 * are named event…, clear of the statement's own.
 */
export function eventsClause(guard: SQL = sql`true`): SQL {
  return sql`event_rows as (
    insert into events (id, user_id, type, created_at, data)
    select e.id, e.user_id, e.type, e.created_at, e.data::jsonb
    from unnest(${sql.placeholder('eventIds')}::text[], ${sql.placeholder('eventUserIds')}::uuid[], ${sql.placeholder('eventTypes')}::text[],
      ${sql.placeholder('eventCreatedAts')}::timestamptz[], ${sql.placeholder('eventDatas')}::text[]) as e(id, user_id, type, created_at, data)
    where ${guard}
    returning 1
  )`;
}

/** The placeholders' values of `eventsClause`. */
export function eventsValues(list: readonly NewEvent[]): Record<string, unknown> {
  return {
    eventIds: list.map((e) => e.id),
    eventUserIds: list.map((e) => e.userId),
    eventTypes: list.map((e) => e.type),
    eventCreatedAts: list.map((e) => e.createdAt.toISOString()),
    eventDatas: list.map((e) => JSON.stringify(e.data)),
  };
}
