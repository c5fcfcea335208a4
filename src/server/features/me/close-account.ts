// Settings → Profile → Close account (decision 165). The core decides whether the account may
// close (core/account-closure.ts: nothing owed to its owner); this writes the closing in one
// transaction. Outside effects come after the commit, from rows written here: the voids of the
// drafts' holds (money effects) and the confirmation e-mail (the mail outbox).
import { and, eq, ne } from 'drizzle-orm';
import { accountClosureRefusal } from '../../../core/account-closure';
import type { Mailer } from '../../adapters/mailer';
import type { Db } from '../../db/client';
import {
  cards,
  passkeyChallenges,
  passkeys,
  passwordResetTokens,
  payoutMethods,
  recoveryCodes,
  sessions,
  twoFactorChallenges,
  twoFactorUnlockTokens,
  users,
  webhookEndpoints,
} from '../../db/schema';
import { audit } from '../../lib/audit';
import { refusalError, unauthorized } from '../../lib/errors';
import { changed, inTransaction } from '../../lib/transaction';
import { deleteUserSessions } from '../../plugins/session';
import { accountClosedEmail } from '../auth';
import { deleteDraftsOf } from '../combines';
import { isWithinValidity } from '../cards';
import { pendingRebatesOf } from '../payout-methods';
import { revertToFree } from '../subscription';

/** Closing needs the password (or a passkey) entered in this session within 5 minutes. */
export const CLOSE_ACCOUNT_REAUTH_WINDOW_MS = 5 * 60 * 1000;

export type ClosedAccount = { draftsDeleted: number; cardsClosed: number };

export async function closeAccount(db: Db, mailer: Mailer, input: { userId: string; currentSessionId: string; now: Date; ip: string }): Promise<ClosedAccount> {
  const { userId, now } = input;
  return inTransaction(db, async (tx) => {
    // The account's row first, as a completion locks it (then its draft): the two never wait on
    // each other the other way round. Writing the row also moves its version, so a completion
    // decided before this commits finds it changed and writes nothing.
    const [user] = await tx.select({ email: users.email, subscription: users.subscription, closedAt: users.closedAt }).from(users).where(eq(users.id, userId)).for('no key update');
    const [session] = await tx.select({ id: sessions.id }).from(sessions).where(eq(sessions.id, input.currentSessionId));
    if (!user || user.closedAt || !session) throw unauthorized();

    // Drafts go before the money is counted: a completion that was writing one has then committed
    // its card, which the count below sees. If the closing is refused, the deletion rolls back.
    const draftsDeleted = await deleteDraftsOf(tx, userId);
    const balances = await tx
      .select({ remainingAmountCents: cards.remainingAmountCents, status: cards.status, validUntil: cards.validUntil })
      .from(cards)
      .where(eq(cards.userId, userId))
      .for('no key update');
    const rebates = await pendingRebatesOf(tx, userId);
    const refusal = accountClosureRefusal({
      cards: balances.map((c) => ({ remainingCents: c.remainingAmountCents, spendable: c.status === 'active' && isWithinValidity(c, now) })),
      pendingRebatesCents: rebates.amountCents,
    });
    if (refusal) throw refusalError(refusal);

    const closedCards = await tx
      .update(cards)
      .set({ status: 'closed', closedAt: now })
      .where(and(eq(cards.userId, userId), ne(cards.status, 'closed')))
      .returning({ id: cards.id });
    changed(tx, { kind: 'cards-of', userId });
    if (user.subscription !== 'free') await revertToFree(tx, userId, now);

    // Every way back in goes, and what the account kept only to let its owner in or pay them.
    await tx.delete(passkeys).where(eq(passkeys.userId, userId));
    await tx.delete(passkeyChallenges).where(eq(passkeyChallenges.userId, userId));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx.delete(twoFactorChallenges).where(eq(twoFactorChallenges.userId, userId));
    await tx.delete(twoFactorUnlockTokens).where(eq(twoFactorUnlockTokens.userId, userId));
    await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, userId));
    await tx.delete(payoutMethods).where(eq(payoutMethods.userId, userId));
    // A closed account's events go nowhere (docs/rules.md#webhooks); its deliveries go with them.
    await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.userId, userId));
    await tx
      .update(users)
      .set({
        closedAt: now,
        // No password is kept: sign-in looks only at open accounts, and nothing else may check one.
        passwordHash: '',
        totpSecretEnc: null,
        totpEnabled: false,
        totpPendingSecretEnc: null,
        totpPendingCreatedAt: null,
        totpLockedAt: null,
        preferredPayout: null,
        lastUpdated: now,
      })
      .where(eq(users.id, userId));

    await mailer.enqueue(accountClosedEmail({ to: user.email }), tx);
    await audit(tx, { userId, event: 'account_closed', ip: input.ip, details: { draftsDeleted, cardsClosed: closedCards.length }, at: now });
    // Last, so that every instance forgets them only once all of the above has committed.
    await deleteUserSessions(tx, userId);
    return { draftsDeleted, cardsClosed: closedCards.length };
  });
}
