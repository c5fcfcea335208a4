// Cash out (issue 7): money leaves a card for a payout method, in one transaction: the plan's
// payout rule, the fee of DECISIONS §2, a conditional balance update that can never go below
// zero, the balanced journal, the transaction record and the payout itself.
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { CASHOUT_MESSAGES, cashoutMethodChoices, exceedsBalanceMessage, payoutNotAllowedMessage } from '../../../core/cashout';
import { cashoutFee } from '../../../core/fees';
import { isPayoutMethod, isPayoutMethodAllowed, PAYOUT_METHOD_LABELS } from '../../../core/plans';
import type { PayoutMethod, PlanId } from '../../../core/plans';
import { isPromoActive } from '../../../core/promo';
import type { Cashout, CreateCashoutResponse } from '../../../contracts/cashouts';
import type { Tx } from '../../db/client';
import { namedStatement } from '../../db/named-statement';
import type { transactions } from '../../db/schema';
import { cards, payoutMethods, users } from '../../db/schema';
import { cardAccountCode, SYSTEM_ACCOUNTS } from '../../ledger/accounts';
import { debitAndPostJournal } from '../../ledger/debit-and-post';
import type { JournalTransaction } from '../../ledger/post-journal';
import { AppError, conflict, forbidden, liveModeNotImplemented, notFound } from '../../lib/errors';
import { claimClause, claimedColumn, requestFingerprint, withIdempotency, type ClaimInFirstStatement } from '../../lib/idempotency';

export type CashoutInput = { cardId: string; amountCents: number; payoutMethod: PayoutMethod };

export const CARD_NOT_FOUND_MESSAGE = 'Card not found.';
export const CARD_FROZEN_MESSAGE = 'This card is frozen. Unfreeze it to cash out.';
export const CARD_NOT_CASHABLE_MESSAGE = 'This card can no longer be cashed out.';
/**
 * Statuses a card may be cashed out in. An expired card can no longer be spent, but the money on
 * it is still the user's: cashing it out is how they get it back (the cards' decision record on expired cards).
 */
export const CASHOUT_CARD_STATUSES = ['active', 'expired'] as const;

export function methodNotSavedMessage(method: PayoutMethod): string {
  return `${PAYOUT_METHOD_LABELS[method]} is not one of your payout methods. Add it in Account Settings → Payout Methods first.`;
}

function demoFlags(app: FastifyInstance) {
  const demo = app.config.demoMode;
  return { simulated: demo, testSource: demo ? 'MVP-Demo' : '', environment: demo ? 'test' : 'production' };
}

export async function createCashout(
  app: FastifyInstance,
  userId: string,
  input: CashoutInput,
  idempotencyKey: string,
): Promise<{ status: number; body: CreateCashoutResponse; replayed: boolean }> {
  // Spec §8: live cash-outs are not built; refuse before anything is read or written.
  if (!app.config.demoMode) throw liveModeNotImplemented();
  // Spec: the cash-out takes about 2 s in demo mode. The wait holds no lock and no connection.
  await app.adapters.delay('cashout');
  const fingerprint = requestFingerprint({ method: 'POST', route: '/api/cashouts', body: input });
  const result = await withIdempotency(
    app.db,
    { userId, key: idempotencyKey, fingerprint, now: app.now() },
    async (tx, claim) => ({ status: 201, body: await cashoutInTransaction(app, tx, userId, input, claim) }),
    { claimInFirstStatement: true },
  );
  return { status: result.status, body: result.body as CreateCashoutResponse, replayed: result.replayed };
}

// The user's plan and promo, and their saved payout methods, in one statement. A share lock is
// enough: the plan cannot change under this cash-out, and concurrent cash-outs of the same user do
// not wait for each other here. A named statement built once (db/named-statement.ts).
// The statement also claims the Idempotency-Key (a WITH clause, lib/idempotency.ts).
const cashoutUserStatement = namedStatement('cashout_user', (db) =>
  db
    .with(claimClause(db))
    .select({
      subscription: users.subscription,
      promoEnd: users.promoEnd,
      savedMethods: sql<string[] | null>`(select array_agg(${payoutMethods.method}) from ${payoutMethods} where ${payoutMethods.userId} = ${users.id} and ${payoutMethods.status} = 'active')`,
      claimed: claimedColumn(),
    })
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')))
    .for('share'),
);

async function cashoutInTransaction(app: FastifyInstance, tx: Tx, userId: string, input: CashoutInput, claim: ClaimInFirstStatement): Promise<CreateCashoutResponse> {
  const now = app.now();
  // Lock order everywhere: user, then cards.
  const [user] = await cashoutUserStatement(tx, { userId, ...claim.values });
  if (!user) throw notFound('Account not found.');
  claim.settle(user.claimed);
  const plan = user.subscription as PlanId;

  // DECISIONS §3: the plan's methods, and among them the user's saved ones when there are any.
  const savedMethods = (user.savedMethods ?? []).filter(isPayoutMethod);
  if (!isPayoutMethodAllowed(plan, input.payoutMethod)) {
    throw forbidden(payoutNotAllowedMessage(plan, input.payoutMethod), 'payout_method_not_allowed');
  }
  if (!cashoutMethodChoices(plan, savedMethods).includes(input.payoutMethod)) {
    throw forbidden(methodNotSavedMessage(input.payoutMethod), 'payout_method_not_saved');
  }

  const fee = cashoutFee({ amountCents: input.amountCents, plan, promoActive: isPromoActive({ promoEnd: user.promoEnd, now }) });

  const transactionId = randomUUID();
  const record: JournalTransaction = {
    id: transactionId,
    userId,
    cardId: input.cardId,
    type: 'cashout',
    status: 'success',
    amountCents: input.amountCents,
    feeCents: fee.feeCents,
    netAmountCents: fee.netCents,
    payoutMethod: input.payoutMethod,
    merchant: null,
    combineId: null,
    createdAt: now,
    ...demoFlags(app),
  };
  // The conditional debit is the guard: it takes the money only if it is there, so concurrent
  // cash-outs of one card can never together take more than the card holds. The journal and the
  // transaction row are written by the same statement, only if the debit happened.
  const posted = await debitAndPostJournal(
    tx,
    { cardId: input.cardId, userId, amountCents: input.amountCents, countsAsSpent: false, statusAtZero: 'cashed_out', allowedStatuses: CASHOUT_CARD_STATUSES },
    {
      kind: 'cashout',
      userId,
      referenceId: transactionId,
      memo: `cashout to ${input.payoutMethod}`,
      entries: [
        { accountCode: cardAccountCode(input.cardId), amountCents: -input.amountCents },
        { accountCode: SYSTEM_ACCOUNTS.payouts, amountCents: fee.netCents },
        { accountCode: SYSTEM_ACCOUNTS.cashoutFeeRevenue, amountCents: fee.feeCents },
      ],
      transactions: [record],
    },
  );
  if (!posted) throw await whyCardCannotPay(tx, userId, input);
  const debited = posted.card;

  // Spec §3: a payout method's last_used moves when it is used (a method the user never saved,
  // allowed because they saved none, has no row to update).
  if (savedMethods.includes(input.payoutMethod)) {
    await tx
      .update(payoutMethods)
      .set({ lastUsed: now })
      .where(and(eq(payoutMethods.userId, userId), eq(payoutMethods.method, input.payoutMethod)));
  }

  // Last, so that a refusal from the provider rolls everything above back (and frees the key).
  const payout = await app.adapters.payouts.send({ method: input.payoutMethod, amountCents: fee.netCents, reference: transactionId });

  return {
    success: true,
    cashout: toCashout(record, debited.last4),
    feeRatePpm: fee.ratePpm,
    card: { id: input.cardId, status: debited.status, remainingAmountCents: debited.remainingAmountCents, amountSpentCents: debited.amountSpentCents },
    payoutId: payout.payoutId,
  };
}

/** The debit was refused: say why, from the card as it is now. */
async function whyCardCannotPay(tx: Tx, userId: string, input: CashoutInput): Promise<AppError> {
  const [card] = await tx
    .select({ status: cards.status, frozen: cards.frozen, remainingAmountCents: cards.remainingAmountCents })
    .from(cards)
    .where(and(eq(cards.id, input.cardId), eq(cards.userId, userId)));
  if (!card) return notFound(CARD_NOT_FOUND_MESSAGE);
  if (card.remainingAmountCents <= 0) return conflict(CASHOUT_MESSAGES.noBalance, 'no_balance');
  if (card.frozen) return conflict(CARD_FROZEN_MESSAGE, 'card_frozen');
  if (!(CASHOUT_CARD_STATUSES as readonly string[]).includes(card.status)) return conflict(CARD_NOT_CASHABLE_MESSAGE, 'card_not_cashable');
  return new AppError(400, 'validation_error', exceedsBalanceMessage(card.remainingAmountCents));
}

type TransactionRow = Pick<
  typeof transactions.$inferSelect,
  'id' | 'cardId' | 'amountCents' | 'feeCents' | 'netAmountCents' | 'payoutMethod' | 'status' | 'createdAt' | 'simulated' | 'testSource' | 'environment'
>;

export function toCashout(row: TransactionRow, cardLast4: string): Cashout {
  return {
    id: row.id,
    type: 'cashout',
    cardId: row.cardId,
    cardLast4,
    amountCents: row.amountCents,
    feeCents: row.feeCents,
    netAmountCents: row.netAmountCents,
    payoutMethod: row.payoutMethod as PayoutMethod,
    status: row.status as Cashout['status'],
    createdAt: row.createdAt.toISOString(),
    simulated: row.simulated,
    testSource: row.testSource,
    environment: row.environment,
  };
}
