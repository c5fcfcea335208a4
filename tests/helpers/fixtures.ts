// Direct-to-database fixtures for tests that exercise one layer (ledger, concurrency) without
// going through the whole wizard. They write through the same ledger code the app uses.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/server/db/client';
import { payoutMethods, users } from '../../src/server/db/schema';
import { SYSTEM_ACCOUNTS, cardAccountCode } from '../../src/server/ledger/accounts';
import { insertCardWithAccount, type NewCard } from '../../src/server/ledger/card-accounts';
import { postJournal } from '../../src/server/ledger/post-journal';

export async function insertUser(db: Db, overrides: Partial<typeof users.$inferInsert> = {}): Promise<string> {
  const [row] = await db
    .insert(users)
    .values({ email: `user-${randomUUID()}@example.com`, passwordHash: 'not-a-real-hash', ...overrides })
    .returning({ id: users.id });
  if (!row) throw new Error('user not inserted');
  return row.id;
}

/** A card holding `amountCents`, funded by a balanced journal from the external funding account. */
export async function insertFundedCard(db: Db, userId: string, amountCents: number, overrides: Partial<NewCard> = {}): Promise<string> {
  return db.transaction(async (tx) => {
    const cardId = randomUUID();
    await insertCardWithAccount(tx, {
      id: cardId,
      userId,
      combineId: null,
      type: 'general',
      status: 'active',
      frozen: false,
      issuedAt: new Date(),
      validUntil: new Date(Date.now() + 365 * 24 * 3600 * 1000),
      expMonth: 12,
      expYear: 2029,
      network: 'visa',
      last4: '4242',
      numberEnc: 'test',
      cvvEnc: 'test',
      originalAmountCents: amountCents,
      amountSpentCents: 0,
      remainingAmountCents: amountCents,
      promoApplied: false,
      promoId: null,
      providerRef: null,
      simulated: true,
      testSource: '',
      environment: 'test',
      ...overrides,
    });
    await postJournal(tx, {
      kind: 'test',
      userId,
      referenceId: cardId,
      entries: [
        { accountCode: SYSTEM_ACCOUNTS.fundingSources, amountCents: -amountCents },
        { accountCode: cardAccountCode(cardId), amountCents },
      ],
    });
    return cardId;
  });
}

/** What is kept of PAYOUT_DETAILS (api-client.ts): the account's last 4 digits, the e-mail, the $cashtag. */
const STORED_DETAIL = { ach: '•••• 6789', paypal: 'ada@example.com', cashapp: '$ada' } as const;

/**
 * A saved payout method with a destination as if the payout provider had registered it (decision
 * 168), without the API's registration call: what a cash-out needs (decision 172). `destinationRef:
 * null` makes a method saved without details.
 */
export async function insertPayoutMethod(
  db: Db,
  userId: string,
  method: keyof typeof STORED_DETAIL = 'ach',
  overrides: Partial<typeof payoutMethods.$inferInsert> = {},
): Promise<void> {
  await db.insert(payoutMethods).values({ userId, method, status: 'active', detail: STORED_DETAIL[method], destinationRef: `demo_dest_${randomUUID()}`, ...overrides });
}
