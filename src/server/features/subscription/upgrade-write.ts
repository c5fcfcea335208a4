// The upgrade's writer: one statement writes its write set (upgrade-decision.ts): the balanced
// journal (payment card → subscription revenue), the payment row that records it, the subscriber's
// new plan, and, for a request with an Idempotency-Key, the key's answer. The reader locked the
// subscriber, so the plan it was on is still theirs; a count that differs is a bug, and throwing
// rolls the transaction back.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { namedSqlStatement, placeholderValues, rowsWritten } from '../../db/named-statement';
import { JOURNAL_RESULT, journalClauses, journalIdFrom, journalValues, rowsOf, type JournalResultRow } from '../../ledger/post-journal';
import { storeClause, storedColumn } from '../../lib/idempotency';
import type { MoneyRequest, WriteContext, Written } from '../../money/run-money-operation';
import type { UpgradeWrite } from './upgrade-decision';

const p = (name: string) => sql.placeholder(name);

function upgradeWriteSql(storesAnswer: boolean) {
  return sql`
    with ${journalClauses()},
    payment as (
      insert into subscription_payments (id, user_id, plan, billing_cycle, list_price_cents, discount_ppm, amount_cents, card_brand, card_last4,
        journal_id, created_at, simulated, test_source, environment)
      select ${p('paymentId')}::uuid, ${p('userId')}::uuid, ${p('paymentPlan')}::text, ${p('paymentCycle')}::text, ${p('listPriceCents')}::bigint,
        ${p('discountPpm')}::int, ${p('amountCents')}::bigint, ${p('cardBrand')}::text, ${p('cardLast4')}::text, journal.id,
        ${p('paidAt')}::timestamptz, ${p('simulated')}::boolean, ${p('testSource')}::text, ${p('environment')}::text
      from new_journal journal
      returning 1
    ),
    upgraded as (
      update users set subscription = ${p('subscription')}::text, billing_cycle = ${p('billingCycle')}::text,
        subscription_price_cents = ${p('subscriptionPriceCents')}::bigint, subscription_updated = ${p('subscriptionUpdated')}::timestamptz,
        current_subscription_start = ${p('currentSubscriptionStart')}::timestamptz, subscription_period_end = ${p('subscriptionPeriodEnd')}::timestamptz,
        cancel_at_period_end = ${p('cancelAtPeriodEnd')}::boolean, subscription_last_canceled_at = ${p('subscriptionLastCanceledAt')}::timestamptz,
        loyalty_discount_months = ${p('loyaltyDiscountMonths')}::int, last_updated = ${p('lastUpdated')}::timestamptz
      where id = ${p('userId')}::uuid and subscription = ${p('fromPlan')}::text
      returning 1
    )
    ${storesAnswer ? sql`, ${storeClause()}` : sql``}
    select ${JOURNAL_RESULT}, ${rowsWritten('payment')} as payment_count, ${rowsWritten('upgraded')} as user_count
      ${storesAnswer ? sql`, ${storedColumn()}` : sql`, 0 as stored`}`;
}

// A request without an Idempotency-Key stores no answer: its statement has no store clause.
const keyedStatement = namedSqlStatement('subscription_upgrade_write', () => upgradeWriteSql(true));
const unkeyedStatement = namedSqlStatement('subscription_upgrade_write_unkeyed', () => upgradeWriteSql(false));

type WriteRow = JournalResultRow & { payment_count: number; user_count: number; stored: number };

export async function writeUpgrade(tx: Tx, write: UpgradeWrite, context: WriteContext<MoneyRequest>): Promise<Written> {
  const { payment, subscriber } = write;
  const { values: journal, ...expected } = journalValues(write.journal);
  const paid = {
    paymentId: payment.id,
    userId: payment.userId,
    paymentPlan: payment.plan,
    paymentCycle: payment.billingCycle,
    listPriceCents: payment.listPriceCents,
    discountPpm: payment.discountPpm,
    amountCents: payment.amountCents,
    cardBrand: payment.cardBrand,
    cardLast4: payment.cardLast4,
    paidAt: payment.createdAt.toISOString(),
    simulated: payment.simulated,
    testSource: payment.testSource,
    environment: payment.environment,
  };
  const upgraded = {
    subscription: subscriber.subscription,
    billingCycle: subscriber.billingCycle,
    subscriptionPriceCents: subscriber.subscriptionPriceCents,
    subscriptionUpdated: subscriber.subscriptionUpdated.toISOString(),
    currentSubscriptionStart: subscriber.currentSubscriptionStart.toISOString(),
    subscriptionPeriodEnd: subscriber.subscriptionPeriodEnd.toISOString(),
    cancelAtPeriodEnd: subscriber.cancelAtPeriodEnd,
    subscriptionLastCanceledAt: subscriber.subscriptionLastCanceledAt,
    loyaltyDiscountMonths: subscriber.loyaltyDiscountMonths,
    lastUpdated: subscriber.lastUpdated.toISOString(),
    fromPlan: write.fromPlan,
  };
  const statement = context.store === null ? unkeyedStatement : keyedStatement;
  const [row] = rowsOf<WriteRow>(await statement(tx, placeholderValues({ journal, paid, upgraded, answer: context.store ?? {} })));
  journalIdFrom(row, expected);
  if (Number(row?.payment_count) !== 1 || Number(row?.user_count) !== 1) throw new Error('writeUpgrade: the payment or the plan was not written');
  if (Number(row?.stored) !== (context.store === null ? 0 : 1)) throw new Error('writeUpgrade: the answer was not stored');
  return 'written';
}
