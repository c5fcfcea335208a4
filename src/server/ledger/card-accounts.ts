import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { namedSqlStatement } from '../db/named-statement';
import { cards } from '../db/schema';
import { cardAccountCode } from './accounts';
import { rowsOf } from './post-journal';

export type CardRow = typeof cards.$inferSelect;
/**
 * Every column of a new card but its ledger account (chosen here), closed_at (null) and its state
 * at the processor (decision 170: the columns' defaults, active as issueCard left it, nothing sent).
 */
export type NewCard = Required<Omit<typeof cards.$inferInsert, 'ledgerAccountId' | 'closedAt' | ProcessorStateColumn>>;
type ProcessorStateColumn = 'processorState' | 'processorSent' | 'processorSeq' | 'processorAttempts' | 'processorRetryAt';
/** A new card's state at the processor, as the columns' defaults write it (the insert does not name them). */
const NEW_CARD_PROCESSOR_STATE = { processorState: 'active', processorSent: null, processorSeq: 0, processorAttempts: 0, processorRetryAt: null } as const satisfies Pick<CardRow, ProcessorStateColumn>;

const CARD_COLUMNS = [
  'id', 'userId', 'combineId', 'type', 'status', 'frozen', 'issuedAt', 'validUntil', 'expMonth', 'expYear', 'network', 'last4',
  'numberEnc', 'cvvEnc', 'originalAmountCents', 'amountSpentCents', 'remainingAmountCents', 'promoApplied', 'promoId', 'providerRef',
  'simulated', 'testSource', 'environment',
] as const satisfies ReadonlyArray<keyof NewCard>;

// The card and its own ledger account: two WITH clauses of one statement, one round trip. The
// account can start with the card's first balance (the journal that funds it is written by the
// same statement, and a sibling WITH clause cannot update a row inserted beside it). Every value
// is a placeholder named card_<column> (and card_account…), so the clauses fit into a larger
// statement beside the journal's (j…, e…, t…) and the caller's own.
const cardColumnNames = sql.raw(CARD_COLUMNS.map((column) => `"${cards[column].name}"`).join(', '));
const cardColumnValues = sql.join(
  CARD_COLUMNS.map((column) => sql.placeholder(`card_${column}`)),
  sql`, `,
);

/**
 * The WITH clauses `card_account` (id, code) and `new_card` (id): the card and its ledger account,
 * written only when `guard` holds (a completion in one statement, decision 151).
 */
export function cardWithAccountClauses(guard: SQL = sql`true`): SQL {
  return sql`
    card_account as (
      insert into ledger_accounts (id, code, kind, user_id, balance_cents)
      select ${sql.placeholder('cardAccountId')}::uuid, ${sql.placeholder('cardAccountCode')}::text, 'card', ${sql.placeholder('card_userId')}::uuid,
        ${sql.placeholder('cardAccountBalance')}::bigint
      where ${guard}
      returning id, code
    ),
    new_card as (
      insert into cards (${cardColumnNames}, ledger_account_id)
      select ${cardColumnValues}, account.id from card_account account
      returning id
    )`;
}

/** The placeholders' values of `cardWithAccountClauses`; the account starts at `accountBalanceCents`. */
export function cardWithAccountValues(card: NewCard, accountBalanceCents: number): { values: Record<string, unknown>; row: CardRow } {
  const ledgerAccountId = crypto.randomUUID();
  const values: Record<string, unknown> = { cardAccountId: ledgerAccountId, cardAccountCode: cardAccountCode(card.id), cardAccountBalance: accountBalanceCents };
  for (const column of CARD_COLUMNS) {
    const value = card[column];
    values[`card_${column}`] = value instanceof Date ? value.toISOString() : value;
  }
  // The row as the database now holds it: every column is given but the processor state's, whose defaults are known.
  return { values, row: { ...card, ledgerAccountId, closedAt: null, ...NEW_CARD_PROCESSOR_STATE } };
}

const insertCardStatement = namedSqlStatement('insert_card_with_account', () => sql`with ${cardWithAccountClauses()} select (select id from new_card) as id`);

/** Inserts a card and its ledger account (code card:<id>, balance 0) in the caller's transaction; a journal then funds it. */
export async function insertCardWithAccount(tx: Tx, card: NewCard): Promise<CardRow> {
  const { values, row } = cardWithAccountValues(card, 0);
  const [inserted] = rowsOf<{ id: string | null }>(await insertCardStatement(tx, values));
  if (inserted?.id !== card.id) throw new Error('card insert returned nothing');
  return row;
}

export type CardBalanceChange = { remainingAmountCents: number; amountSpentCents: number; status: string; last4: string };

export type DebitRow = { remaining_amount_cents: string | number; amount_spent_cents: string | number; status: string; last4: string };

/**
 * The conditional debit (see debitCard), its values as placeholders; shared with the cash-out's
 * and the purchase's statements, which may add a `guard` of their own. Every debit counts toward
 * `amount_spent` (purchases, cash-outs and use as a source alike), so `original = spent + remaining`
 * holds on every card (docs/rules.md#card-figures, the cards_figures_add_up CHECK). A debit that
 * empties a card into `statusAtZero` closes it at `closedAt` (the database's clock unless the
 * statement says: a writer that answers with the card names the moment its answer shows).
 */
export function debitCardSql(guard: SQL = sql`true`, closedAt: SQL = sql`now()`): SQL {
  return sql`
    update cards set
      remaining_amount_cents = remaining_amount_cents - ${sql.placeholder('amountCents')}::bigint,
      amount_spent_cents = amount_spent_cents + ${sql.placeholder('amountCents')}::bigint,
      status = case when ${sql.placeholder('statusAtZero')}::text is not null and remaining_amount_cents = ${sql.placeholder('amountCents')}::bigint
                    then ${sql.placeholder('statusAtZero')}::text else status end,
      closed_at = case when ${sql.placeholder('statusAtZero')}::text is not null and remaining_amount_cents = ${sql.placeholder('amountCents')}::bigint
                    then ${closedAt} else closed_at end
    where id = ${sql.placeholder('cardId')}::uuid and user_id = ${sql.placeholder('userId')}::uuid and not frozen
      and status = any(${sql.placeholder('allowedStatuses')}::text[]) and remaining_amount_cents >= ${sql.placeholder('amountCents')}::bigint
      and (${sql.placeholder('validAt')}::timestamptz is null or valid_until > ${sql.placeholder('validAt')}::timestamptz)
      and ${guard}
    returning remaining_amount_cents, amount_spent_cents, status, last4`;
}

export type DebitInput = {
  cardId: string;
  userId: string;
  amountCents: number;
  /**
   * The moment the card must still be valid at (docs/rules.md#card-expiry: an expired card can neither pay nor
   * fund a combine, even before the expiry job has marked it); null for a cash-out, which may
   * empty an expired card (decision 007).
   */
  validAt: Date | null;
  /** The status the card takes when this debit empties it (null: unchanged). */
  statusAtZero: 'cashed_out' | 'closed' | null;
  allowedStatuses?: ReadonlyArray<'active' | 'expired'>;
};

export function debitValues(input: DebitInput): Record<string, unknown> {
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) throw new Error(`debitCard: bad amount ${input.amountCents}`);
  return {
    cardId: input.cardId,
    userId: input.userId,
    amountCents: input.amountCents,
    validAt: input.validAt?.toISOString() ?? null,
    statusAtZero: input.statusAtZero,
    allowedStatuses: input.allowedStatuses ?? ['active'],
  };
}

export function balanceChangeFrom(row: DebitRow): CardBalanceChange {
  return { remainingAmountCents: Number(row.remaining_amount_cents), amountSpentCents: Number(row.amount_spent_cents), status: row.status, last4: row.last4 };
}

// A named statement built once (db/named-statement.ts): it runs on every purchase and transfer.
const debitCardStatement = namedSqlStatement('debit_card', debitCardSql);

/**
 * Takes money off a card, only if the card belongs to the user, is not frozen, is in one of the
 * allowed statuses and holds enough. The single conditional UPDATE is what makes concurrent
 * spends safe: PostgreSQL re-checks the WHERE clause on the locked row, so two requests can
 * never both take the last dollar. Returns null when the card cannot pay (the caller says why).
 */
export async function debitCard(tx: Tx, input: DebitInput): Promise<CardBalanceChange | null> {
  const row = rowsOf<DebitRow>(await debitCardStatement(tx, debitValues(input)))[0];
  return row ? balanceChangeFrom(row) : null;
}
