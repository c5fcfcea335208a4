// Settings → Security: the account's passkeys, rename and remove (docs/decisions/090, 091).
import { and, asc, count, eq } from 'drizzle-orm';
import type { Passkey } from '../../../contracts/passkeys';
import { PASSKEY_MESSAGES } from '../../../contracts/passkeys';
import { canRemovePasskey } from '../../../core/sign-in-methods';
import type { Db, DbOrTx } from '../../db/client';
import { passkeys, users } from '../../db/schema';
import { audit } from '../../lib/audit';
import { conflict, notFound, unauthorized } from '../../lib/errors';
import { inTransaction } from '../../lib/transaction';

type PasskeyRow = typeof passkeys.$inferSelect;

export function toPasskey(row: PasskeyRow): Passkey {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt ? row.lastUsedAt.toISOString() : null,
    backedUp: row.backedUp,
  };
}

export async function listPasskeys(db: DbOrTx, userId: string): Promise<Passkey[]> {
  const rows = await db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt), asc(passkeys.id));
  return rows.map(toPasskey);
}

const owned = (userId: string, passkeyId: string) => and(eq(passkeys.userId, userId), eq(passkeys.id, passkeyId));
const passkeyNotFound = () => notFound(PASSKEY_MESSAGES.notFound);

export async function renamePasskey(db: Db, input: { userId: string; passkeyId: string; name: string; now: Date; ip: string }): Promise<Passkey> {
  const [row] = await db.update(passkeys).set({ name: input.name }).where(owned(input.userId, input.passkeyId)).returning();
  if (!row) throw passkeyNotFound();
  await audit(db, { userId: input.userId, event: 'passkey_renamed', ip: input.ip, details: { passkeyId: row.id }, at: input.now });
  return toPasskey(row);
}

/** Removes one of the user's passkeys, unless it is the account's last way to sign in (decision 091). */
export async function removePasskey(db: Db, input: { userId: string; passkeyId: string; now: Date; ip: string }): Promise<void> {
  await inTransaction(db, async (tx) => {
    // The account row locked: two removals at once cannot together remove the last method.
    const [user] = await tx.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, input.userId)).for('no key update');
    if (!user) throw unauthorized();
    const [mine] = await tx.select({ id: passkeys.id }).from(passkeys).where(owned(input.userId, input.passkeyId));
    if (!mine) throw passkeyNotFound();
    const [counted] = await tx.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, input.userId));
    if (!canRemovePasskey({ hasPassword: user.passwordHash !== '', passkeyCount: counted?.n ?? 0 })) {
      throw conflict(PASSKEY_MESSAGES.lastSignInMethod, 'last_sign_in_method');
    }
    await tx.delete(passkeys).where(owned(input.userId, input.passkeyId));
    await audit(tx, { userId: input.userId, event: 'passkey_removed', ip: input.ip, details: { passkeyId: input.passkeyId }, at: input.now });
  });
}
