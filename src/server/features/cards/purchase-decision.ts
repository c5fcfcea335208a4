// The demo purchase decided, in the server's terms: the core's plan (core/plan-purchase.ts) and the
// rows and answer it turns into, for the purchase's writer (purchase-write.ts). A decline is not a
// refusal: it writes a declined transaction row and answers 402, stored with the key, so a retry
// answers the same decline instead of trying again. Pure: nothing here reads or writes.
import { planPurchase } from '../../../core/plan-purchase';
import type { MerchantLock, SpendControls, SpendHistory } from '../../../core/spend-controls';
import { writeSetOfPurchase } from '../../../core/write-set-of';
import { declineMessage, type DeclineReason, type PurchaseRequest, type PurchaseResponse } from '../../../contracts/cards';
import type { ErrorResponse } from '../../../contracts/errors';
import { postingsOf } from '../../ledger/accounts';
import type { DebitInput } from '../../ledger/card-accounts';
import type { JournalInput, JournalTransaction } from '../../ledger/post-journal';
import type { Decision } from '../../money/run-money-operation';
import { toCardView, type CardRow } from './card-view';
import { toTransactionView, type TransactionRow } from './list-card-transactions';

/** What the purchase writes: the debit with its journal and transaction row, or the declined row. */
export type PurchaseWrite =
  | { approved: { debit: DebitInput; journal: JournalInput; cardAfter: CardRow; lockAfter: MerchantLock | null } }
  | { declined: TransactionRow & { declineReason: DeclineReason } };

export type PurchaseFacts = {
  /** The card as the reader locked it. */
  card: CardRow;
  /** Frozen when the purchase was submitted, before the payment's wait. */
  frozenWhenSubmitted: boolean;
  request: PurchaseRequest;
  userId: string;
  transactionId: string;
  now: Date;
  /**
   * The transaction's time as the database keeps it: the purchase's row and a card's closing are
   * dated by it, and so the spend windows end at it (the history's purchases are dated by it too).
   */
  databaseNow: Date;
  /** The card's spend controls and approved purchases, read under its lock. */
  controls: SpendControls;
  history: SpendHistory;
};

export function decidePurchase(facts: PurchaseFacts): Decision<PurchaseWrite> {
  const { card, request, userId, transactionId: id, now, databaseNow } = facts;
  const { amountCents, merchant } = request;
  // A freeze stops what was asked while it held (docs/rules.md#card-freeze: a frozen card cannot
  // pay), even when the card is unfrozen during the payment's wait; a freeze during the wait too.
  const planned = {
    card: { ...card, frozen: card.frozen || facts.frozenWhenSubmitted },
    amountCents,
    merchant,
    now,
    category: request.category ?? 'other',
    controls: facts.controls,
    history: facts.history,
    historyNow: databaseNow,
  };
  const plan = planPurchase(planned);
  const writeSet = writeSetOfPurchase(planned, plan);
  const row: TransactionRow = {
    id,
    userId,
    cardId: card.id,
    type: 'purchase',
    status: 'success',
    amountCents,
    feeCents: 0,
    netAmountCents: amountCents,
    payoutMethod: null,
    merchant,
    // As named: a purchase naming none is recorded (and answered) as before the categories existed.
    category: request.category ?? null,
    declineReason: null,
    declineDetail: null,
    combineId: null,
    journalId: null,
    createdAt: databaseNow,
    simulated: card.simulated,
    testSource: card.testSource,
    environment: card.environment,
  };
  if (!plan.ok) {
    const reason = plan.decline;
    const detail = plan.detail ?? null;
    const body: ErrorResponse = { error: { code: 'declined', message: declineMessage(reason, detail), details: { reason, transactionId: id, ...detail } } };
    return { write: { declined: { ...row, status: 'declined', declineReason: reason, declineDetail: detail } }, answer: { status: 402, body }, effects: [], writeSet };
  }
  const remainingAmountCents = card.remainingAmountCents - amountCents;
  const emptied = plan.debit.statusAtZero !== null && remainingAmountCents === 0;
  // The card as the debit leaves it: the reader locked it, so nothing else changes it before the commit.
  const cardAfter: CardRow = {
    ...card,
    remainingAmountCents,
    amountSpentCents: card.amountSpentCents + amountCents,
    status: emptied ? plan.debit.statusAtZero! : card.status,
    closedAt: emptied ? databaseNow : card.closedAt,
  };
  const record: JournalTransaction = { ...row, type: 'purchase', status: 'success' };
  const journal: JournalInput = { kind: plan.journal.kind, userId, referenceId: card.id, memo: plan.journal.memo, entries: postingsOf(plan.journal.lines), transactions: [record] };
  const body: PurchaseResponse = { transaction: toTransactionView(row), card: toCardView(cardAfter, now) };
  return { write: { approved: { debit: { ...plan.debit, userId }, journal, cardAfter, lockAfter: plan.lockAfter } }, answer: { status: 201, body }, effects: [], writeSet };
}
