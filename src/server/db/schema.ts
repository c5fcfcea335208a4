// The whole database in one place. Money columns are bigint cents (docs/rules.md#money-cents); names end in
// `_cents`. Migrations in /migrations are generated from this file with `npm run db:generate`
// and then committed; hand-written SQL (triggers, seeds) lives in its own numbered migration.
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { SpendControls } from '../../core/spend-controls';
import type { StoredDeclineDetail } from '../../core/plan-purchase';

const money = (name: string) => bigint(name, { mode: 'number' });
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => ts('created_at').notNull().defaultNow();
// docs/rules.md#registration demo flags carried by every record a demo user creates.
const demoFlags = () => ({
  simulated: boolean('simulated').notNull().default(true),
  testSource: text('test_source').notNull().default(''),
  environment: text('environment').notNull().default('test'),
});

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    createdAt: createdAt(),
    lastReset: ts('last_reset'),
    subscription: text('subscription').notNull().default('free'),
    billingCycle: text('billing_cycle'),
    subscriptionPriceCents: money('subscription_price_cents').notNull().default(0),
    subscriptionUpdated: ts('subscription_updated'),
    currentSubscriptionStart: ts('current_subscription_start'),
    subscriptionPeriodEnd: ts('subscription_period_end'),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    subscriptionLastCanceledAt: ts('subscription_last_canceled_at'),
    loyaltyDiscountMonths: integer('loyalty_discount_months').notNull().default(0),
    boostsUsed: integer('boosts_used').notNull().default(0),
    boostsAvailable: integer('boosts_available').notNull().default(0),
    combineTotal: integer('combine_total').notNull().default(0),
    promo50offFirstYear: boolean('promo_50off_first_year').notNull().default(false),
    promoStart: ts('promo_start'),
    promoEnd: ts('promo_end'),
    preferredPayout: text('preferred_payout'),
    // Two-factor sign-in (docs/decisions/014): the TOTP secret, AES-256-GCM encrypted; the one a
    // setup is waiting to confirm is kept apart so an unconfirmed setup never changes sign-in.
    totpSecretEnc: text('totp_secret_enc'),
    totpEnabled: boolean('totp_enabled').notNull().default(false),
    totpPendingSecretEnc: text('totp_pending_secret_enc'),
    totpPendingCreatedAt: ts('totp_pending_created_at'),
    // The last 30-second step whose code was accepted: a code is never accepted twice.
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    // Set when the daily cap on wrong second-factor codes is reached (decision 083): codes from the
    // app are refused until a recovery code or the e-mailed unlock link clears it.
    totpLockedAt: ts('totp_locked_at'),
    lastUpdated: ts('last_updated').notNull().defaultNow(),
    // Set when the owner closed the account (decision 165). The row stays, with its e-mail, for
    // the money records that point to it; nothing signs in to it again.
    closedAt: ts('closed_at'),
    ...demoFlags(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    check('users_subscription_check', sql`${t.subscription} in ('free', 'premium', 'premium+')`),
    check('users_billing_cycle_check', sql`${t.billingCycle} is null or ${t.billingCycle} in ('monthly', 'yearly')`),
    check('users_boosts_check', sql`${t.boostsAvailable} between 0 and 3 and ${t.boostsUsed} between 0 and 3`),
    check('users_combine_total_check', sql`${t.combineTotal} >= 0`),
    check('users_preferred_payout_check', sql`${t.preferredPayout} is null or ${t.preferredPayout} in ('ach', 'paypal', 'cashapp')`),
  ],
);

export const payoutMethods = pgTable(
  'payout_methods',
  {
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    method: text('method').notNull(),
    status: text('status').notNull().default('active'),
    lastUsed: ts('last_used'),
    createdAt: createdAt(),
    /** Where the money goes, as the user recognises it: "•••• 6789", an e-mail, a $cashtag (core/payout-details.ts). */
    detail: text('detail'),
    /**
     * Where the money goes, as the payout provider knows it: the opaque reference it answered when
     * the details were registered (decision 168). Null when none was registered (no details given).
     */
    destinationRef: text('destination_ref'),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.method] }),
    check('payout_methods_method_check', sql`${t.method} in ('ach', 'paypal', 'cashapp')`),
    check('payout_methods_status_check', sql`${t.status} in ('active', 'inactive')`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    // SHA-256 of the cookie token: a database leak does not leak live sessions.
    tokenHash: text('token_hash').notNull(),
    remember: boolean('remember').notNull().default(false),
    createdAt: createdAt(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    // Last time the user re-entered the password in this session (card reveal asks again after 5 min).
    reauthenticatedAt: ts('reauthenticated_at'),
    userAgent: text('user_agent'),
    ip: text('ip'),
  },
  (t) => [uniqueIndex('sessions_token_hash_key').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [uniqueIndex('password_reset_tokens_hash_key').on(t.tokenHash)],
);

// The e-mailed link that unlocks a second factor locked by the daily cap (decision 083): like a
// reset link, a single-use random token valid 1 hour, only its SHA-256 stored.
export const twoFactorUnlockTokens = pgTable(
  'two_factor_unlock_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [uniqueIndex('two_factor_unlock_tokens_hash_key').on(t.tokenHash), index('two_factor_unlock_tokens_user_idx').on(t.userId)],
);

export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
);

// A sign-in whose password was right and which waits for the second factor (docs/decisions/014).
// The browser holds the random challenge id; only its SHA-256 is stored, like a session token.
export const twoFactorChallenges = pgTable(
  'two_factor_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    remember: boolean('remember').notNull().default(false),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [
    uniqueIndex('two_factor_challenges_token_hash_key').on(t.tokenHash),
    index('two_factor_challenges_user_idx').on(t.userId),
    check('two_factor_challenges_attempts_check', sql`${t.attempts} >= 0`),
  ],
);

// Passkeys (WebAuthn, docs/decisions/090). Only the public key is kept: the private key never
// leaves the authenticator. `counter` is the signature counter (0 for authenticators that do not
// count); `backed_up` and `device_type` say whether the passkey is synced between devices.
export const passkeys = pgTable(
  'passkeys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    /** The credential id the authenticator chose, base64url. */
    credentialId: text('credential_id').notNull(),
    /** COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports').array().notNull().default(sql`'{}'::text[]`),
    deviceType: text('device_type').notNull(),
    backedUp: boolean('backed_up').notNull().default(false),
    aaguid: text('aaguid').notNull().default(''),
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [
    uniqueIndex('passkeys_credential_id_key').on(t.credentialId),
    index('passkeys_user_idx').on(t.userId),
    check('passkeys_counter_check', sql`${t.counter} >= 0`),
    check('passkeys_device_type_check', sql`${t.deviceType} in ('singleDevice', 'multiDevice')`),
  ],
);

// A WebAuthn challenge waiting for its answer: random, single use (deleted when answered), valid
// 5 minutes, and bound either to the session that asked for it (adding a passkey, re-authenticating)
// or to an HttpOnly cookie holding a random token of which only the SHA-256 is kept (signing in).
export const passkeyChallenges = pgTable(
  'passkey_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    purpose: text('purpose').notNull(),
    challenge: text('challenge').notNull(),
    /** The account the ceremony is for; null for a sign-in that does not know its user yet. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    sessionId: uuid('session_id').references(() => sessions.id, { onDelete: 'cascade' }),
    cookieHash: text('cookie_hash'),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [
    uniqueIndex('passkey_challenges_cookie_hash_key').on(t.cookieHash),
    index('passkey_challenges_session_idx').on(t.sessionId),
    index('passkey_challenges_expires_idx').on(t.expiresAt),
    check('passkey_challenges_purpose_check', sql`${t.purpose} in ('register', 'sign_in', 'second_factor', 'reauthenticate')`),
    check('passkey_challenges_binding_check', sql`(${t.sessionId} is null) <> (${t.cookieHash} is null)`),
  ],
);

export const outbox = pgTable(
  'outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    // A pending message is not tried before this time: the lease of the flusher that claimed it
    // (so two instances never send it twice at once), then the back-off after a failure.
    nextAttemptAt: ts('next_attempt_at'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: ts('sent_at'),
  },
  (t) => [
    index('outbox_created_idx').on(t.createdAt),
    check('outbox_status_check', sql`${t.status} in ('pending', 'sent', 'stored', 'failed')`),
  ],
);

// Money effects (docs/rules.md#outside-effects, decision 030): what the outside world must do because a
// transaction committed (capture or void a hold, send a payout or a BNPL rebate), written in that
// same transaction and carried out after the commit by the drain (server/effects/drain.ts).
// `reference` is what the outside system deduplicates by, so a call retried after a lost answer
// does the thing once. Statuses: pending (to do, not before next_attempt_at), done, dead (gave up
// after the last attempt; logged for a person).
export const moneyEffects = pgTable(
  'money_effects',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    reference: text('reference').notNull(),
    userId: uuid('user_id'),
    payload: jsonb('payload').notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lastError: text('last_error'),
    result: jsonb('result'),
    createdAt: createdAt(),
    doneAt: ts('done_at'),
  },
  (t) => [
    uniqueIndex('money_effects_reference_key').on(t.reference),
    index('money_effects_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    check('money_effects_kind_check', sql`${t.kind} in ('capture', 'void', 'payout', 'rebate_payout')`),
    check('money_effects_status_check', sql`${t.status} in ('pending', 'done', 'dead')`),
  ],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id'),
    event: text('event').notNull(),
    ip: text('ip'),
    details: jsonb('details').notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_user_idx').on(t.userId, t.createdAt)],
);

// Rate-limit counters shared by every server instance on PostgreSQL (decision 082): the layout
// rate-limiter-flexible's RateLimiterDrizzle reads and writes (points used until `expire`).
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    key: text('key').primaryKey(),
    points: integer('points').notNull().default(0),
    expire: ts('expire'),
  },
  (t) => [index('rate_limit_counters_expire_idx').on(t.expire)],
);

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    // Method, route and body hash: the same key reused for a different request is refused.
    fingerprint: text('fingerprint').notNull(),
    responseStatus: integer('response_status').notNull(),
    responseBody: jsonb('response_body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

export const systemPromos = pgTable(
  'system_promos',
  {
    id: text('id').primaryKey(),
    first100PromoClaimed: integer('first_100_promo_claimed').notNull().default(0),
    limitCount: integer('limit_count').notNull().default(100),
  },
  // The database itself refuses a 101st claim, whatever the code does.
  (t) => [check('system_promos_claimed_check', sql`${t.first100PromoClaimed} between 0 and ${t.limitCount}`)],
);

// ---- Ledger ---------------------------------------------------------------------------------
// Sign convention: an account's balance is the sum of its entries. Money on a card is positive;
// external accounts (funding sources, payouts, merchants) go negative as money leaves them.
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: text('code').notNull(),
    kind: text('kind').notNull(),
    userId: uuid('user_id'),
    balanceCents: money('balance_cents').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_accounts_code_key').on(t.code),
    check(
      'ledger_accounts_kind_check',
      sql`${t.kind} in ('funding_source', 'card', 'product_fee_revenue', 'creation_fee_revenue', 'cashout_fee_revenue', 'processor_fees', 'bnpl_provider_fees', 'rebates_payable', 'payouts', 'merchants', 'subscription_revenue')`,
    ),
    check('ledger_accounts_card_not_negative', sql`${t.kind} <> 'card' or ${t.balanceCents} >= 0`),
  ],
);

export const journals = pgTable(
  'journals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    userId: uuid('user_id'),
    referenceId: uuid('reference_id'),
    memo: text('memo').notNull().default(''),
    createdAt: createdAt(),
  },
  // No index on reference_id: nothing reads journals by it, and every money movement would pay
  // for one (migration 0011, docs/decisions/141).
);

export const journalEntries = pgTable(
  'journal_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    journalId: uuid('journal_id').notNull().references(() => journals.id),
    accountId: uuid('account_id').notNull().references(() => ledgerAccounts.id),
    amountCents: money('amount_cents').notNull(),
  },
  (t) => [
    // By journal for the balance trigger; none by account: only the ledger check reads entries by
    // account, all of them at once, and every entry inserted would pay for it (decision 141).
    index('journal_entries_journal_idx').on(t.journalId),
    check('journal_entries_nonzero', sql`${t.amountCents} <> 0`),
  ],
);

// ---- Combines, cards, money movements ---------------------------------------------------------
export const combines = pgTable(
  'combines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('in_progress'),
    baseAmountCents: money('base_amount_cents').notNull().default(0),
    totalAmountCents: money('total_amount_cents').notNull().default(0),
    taxBufferCents: money('tax_buffer_cents').notNull().default(0),
    includeTaxBuffer: boolean('include_tax_buffer').notNull().default(true),
    // The amount step's raw inputs, so a resumed draft shows exactly what the user typed.
    baseInput: text('base_input').notNull().default(''),
    bufferInput: text('buffer_input').notNull().default(''),
    bufferMode: text('buffer_mode').notNull().default('percent'),
    currentStep: integer('current_step').notNull().default(1),
    bnplStepCompleted: boolean('bnpl_step_completed').notNull().default(false),
    bnplCheckoutCompleted: boolean('bnpl_checkout_completed').notNull().default(false),
    useBoost: boolean('use_boost').notNull().default(false),
    creationFeeSourceIdx: integer('creation_fee_source_idx').notNull().default(-1),
    cardType: text('card_type').notNull().default('general'),
    promoApplied: boolean('promo_applied').notNull().default(false),
    // Whether the launch promo halved this combine's product fee (decision 167): true for the
    // combine that claimed the spot and for every one completed while the promo ran.
    promoDiscount: boolean('promo_discount').notNull().default(false),
    bnplFeeMaxCents: money('bnpl_fee_max_cents').notNull().default(0),
    bnplFeeActualCents: money('bnpl_fee_actual_cents').notNull().default(0),
    rebateId: uuid('rebate_id'),
    cardId: uuid('card_id'),
    // The wizard's own inputs (raw text of the amount step, buffer mode...) so a resumed draft looks the same.
    formData: jsonb('form_data').notNull().default({}),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    savedAt: ts('saved_at'),
    completedAt: ts('completed_at'),
    ...demoFlags(),
  },
  (t) => [
    index('combines_user_status_idx').on(t.userId, t.status, t.createdAt),
    // The draft-lifetime job's scan (decision 163): only drafts, which are few beside completed combines.
    index('combines_open_drafts_idx').on(t.createdAt).where(sql`${t.status} in ('in_progress', 'incomplete')`),
    check('combines_status_check', sql`${t.status} in ('in_progress', 'incomplete', 'processing', 'completed', 'failed')`),
    check('combines_card_type_check', sql`${t.cardType} in ('general', 'single-use')`),
    check('combines_amounts_check', sql`${t.totalAmountCents} >= 0 and ${t.totalAmountCents} <= 5000000 and ${t.taxBufferCents} >= 0`),
  ],
);

export const combineSources = pgTable(
  'combine_sources',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    combineId: uuid('combine_id').notNull().references(() => combines.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    position: integer('position').notNull(),
    type: text('type').notNull(),
    provider: text('provider').notNull(),
    chargeCents: money('charge_cents').notNull(),
    // Never the number or CVV (docs/rules.md#card-expiry): brand, last 4, expiry and the processor's token only.
    brand: text('brand'),
    last4: text('last4'),
    expMonth: integer('exp_month'),
    expYear: integer('exp_year'),
    token: text('token'),
    authorizationId: text('authorization_id'),
    status: text('status').notNull().default('authorized'),
    sourceCardId: uuid('source_card_id'),
    bnplCardBrand: text('bnpl_card_brand'),
    bnplCardLast4: text('bnpl_card_last4'),
    bnplCardToken: text('bnpl_card_token'),
    bnplTransactionId: text('bnpl_transaction_id'),
    processorFeeCents: money('processor_fee_cents').notNull().default(0),
    productFeeCents: money('product_fee_cents').notNull().default(0),
    netCents: money('net_cents').notNull().default(0),
    bnplFeeMaxCents: money('bnpl_fee_max_cents').notNull().default(0),
    bnplFeeActualCents: money('bnpl_fee_actual_cents').notNull().default(0),
    rebateCents: money('rebate_cents').notNull().default(0),
    creationFeeCents: money('creation_fee_cents').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index('combine_sources_combine_idx').on(t.combineId, t.position),
    check('combine_sources_type_check', sql`${t.type} in ('credit', 'debit', 'prepaid', 'bnpl', 'internal')`),
    check('combine_sources_status_check', sql`${t.status} in ('authorized', 'captured', 'released')`),
    check('combine_sources_charge_check', sql`${t.chargeCents} > 0`),
  ],
);

/**
 * The state a card should have at the processor, in SQL: core/card-processor-state.ts's rule
 * (`processorStateOf`), which card-states.test.ts holds this to. Unqualified column names, so it
 * reads the same in the index's predicate and in the reconciler's claim.
 */
export const CARD_PROCESSOR_STATE_WANTED = `case when status <> 'active' then 'closed' when frozen then 'frozen' else 'active' end`;
/**
 * A card the processor must be told about: one it knows (issued with a provider reference) whose
 * wanted state is not the one it confirmed, or with an instruction under way or unconfirmed. The
 * partial index's predicate, repeated word for word by the claim so that the planner uses it.
 */
export const CARD_PROCESSOR_STATE_DUE = `provider_ref is not null and (processor_sent is not null or processor_state <> (${CARD_PROCESSOR_STATE_WANTED}))`;

export const cards = pgTable(
  'cards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    combineId: uuid('combine_id'),
    type: text('type').notNull().default('general'),
    status: text('status').notNull().default('active'),
    frozen: boolean('frozen').notNull().default(false),
    issuedAt: ts('issued_at').notNull().defaultNow(),
    validUntil: ts('valid_until').notNull(),
    expMonth: integer('exp_month').notNull(),
    expYear: integer('exp_year').notNull(),
    network: text('network').notNull(),
    last4: text('last4').notNull(),
    // AES-256-GCM ciphertexts (iv.tag.ciphertext, base64); only the reveal endpoint decrypts them.
    numberEnc: text('number_enc').notNull(),
    cvvEnc: text('cvv_enc').notNull(),
    originalAmountCents: money('original_amount_cents').notNull(),
    amountSpentCents: money('amount_spent_cents').notNull().default(0),
    remainingAmountCents: money('remaining_amount_cents').notNull(),
    ledgerAccountId: uuid('ledger_account_id').notNull(),
    promoApplied: boolean('promo_applied').notNull().default(false),
    promoId: text('promo_id'),
    providerRef: text('provider_ref'),
    closedAt: ts('closed_at'),
    ...demoFlags(),
    // Decision 170: the card's state at the processor, reconciled by server/effects/card-states.ts.
    // What the processor last confirmed (issueCard leaves a card active, hence the default)...
    processorState: text('processor_state').notNull().default('active'),
    // ...the instruction sent and not yet confirmed (null: none), whose reference is
    // card-state:<id>:<processor_seq>:<processor_sent>...
    processorSent: text('processor_sent'),
    processorSeq: integer('processor_seq').notNull().default(0),
    // ...and its attempts, and when the next may start (a lease while one is under way, then the back-off).
    processorAttempts: integer('processor_attempts').notNull().default(0),
    processorRetryAt: ts('processor_retry_at'),
  },
  (t) => [
    index('cards_user_idx').on(t.userId, t.issuedAt),
    // The cards whose state the processor does not hold yet: few, whatever the table holds. The
    // predicate reads status and frozen but never the balance, so a purchase or a cash-out that
    // does not empty a card (its status unchanged) stays a HOT update, as before. (No CHECK on the new
    // columns either: every update of a card, every debit, would evaluate it. Only the reconciler
    // writes them, with the values of CARD_PROCESSOR_STATE_WANTED.)
    index('cards_processor_state_due_idx').on(t.processorRetryAt.asc().nullsFirst()).where(sql.raw(CARD_PROCESSOR_STATE_DUE)),
    check('cards_remaining_not_negative', sql`${t.remainingAmountCents} >= 0`),
    check('cards_amounts_check', sql`${t.amountSpentCents} >= 0 and ${t.originalAmountCents} >= 0`),
    // docs/rules.md#card-figures: every debit (purchase, cash-out, use as a source) counts as spent (migration 0010).
    check('cards_figures_add_up', sql`${t.originalAmountCents} = ${t.amountSpentCents} + ${t.remainingAmountCents}`),
    check('cards_type_check', sql`${t.type} in ('general', 'single-use')`),
    check('cards_status_check', sql`${t.status} in ('active', 'cashed_out', 'expired', 'closed')`),
    check('cards_network_check', sql`${t.network} in ('visa', 'mastercard')`),
  ],
);

// The owner's spend controls of a card (docs/rules.md#card-controls, decision 190): a row of its own,
// none until the owner sets some (no row: DEFAULT_CONTROLS), so the cards row every debit and read
// touches stays as it was. Read and written under the card's row lock.
export const cardSpendControls = pgTable('card_spend_controls', {
  cardId: uuid('card_id')
    .primaryKey()
    .references(() => cards.id, { onDelete: 'cascade' }),
  controls: jsonb('controls').$type<SpendControls>().notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

// Spec's "Transaction": cash-outs, plus the card's purchases and transfers, one row per movement.
export const transactions = pgTable(
  'transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    cardId: uuid('card_id').notNull(),
    type: text('type').notNull(),
    status: text('status').notNull().default('success'),
    amountCents: money('amount_cents').notNull(),
    feeCents: money('fee_cents').notNull().default(0),
    netAmountCents: money('net_amount_cents').notNull(),
    payoutMethod: text('payout_method'),
    merchant: text('merchant'),
    // A purchase's merchant category as its request named it (none named: null, decided as 'other',
    // so a purchase without one is recorded and answered as before); null on every other movement
    // (docs/rules.md#card-controls).
    category: text('category'),
    declineReason: text('decline_reason'),
    // What a controls decline was measured against (the window and what it left, the lock's
    // merchant, the category), so the card's list can say it as it was said at the time.
    declineDetail: jsonb('decline_detail').$type<StoredDeclineDetail>(),
    combineId: uuid('combine_id'),
    journalId: uuid('journal_id'),
    createdAt: createdAt(),
    ...demoFlags(),
  },
  (t) => [
    index('transactions_card_idx').on(t.cardId, t.createdAt),
    index('transactions_user_type_idx').on(t.userId, t.type, t.createdAt),
    check('transactions_type_check', sql`${t.type} in ('cashout', 'purchase', 'funding', 'transfer_in', 'transfer_out')`),
    check('transactions_status_check', sql`${t.status} in ('success', 'declined', 'pending')`),
    check('transactions_amount_check', sql`${t.amountCents} >= 0 and ${t.feeCents} >= 0`),
  ],
);

export const rebates = pgTable(
  'rebates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    combineId: uuid('combine_id').notNull(),
    cardId: uuid('card_id').notNull(),
    sourceId: uuid('source_id').notNull(),
    transactionId: text('transaction_id'),
    bnplFeeMaxCents: money('bnpl_fee_max_cents').notNull(),
    bnplFeeActualCents: money('bnpl_fee_actual_cents').notNull(),
    rebateAmountCents: money('rebate_amount_cents').notNull(),
    payoutMethod: text('payout_method'),
    status: text('status').notNull().default('pending'),
    processedAt: ts('processed_at'),
    journalId: uuid('journal_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('rebates_user_idx').on(t.userId, t.status),
    check('rebates_status_check', sql`${t.status} in ('pending', 'processed')`),
    check('rebates_amount_check', sql`${t.rebateAmountCents} >= 0`),
  ],
);

export const subscriptionPayments = pgTable('subscription_payments', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  plan: text('plan').notNull(),
  billingCycle: text('billing_cycle').notNull(),
  listPriceCents: money('list_price_cents').notNull(),
  discountPpm: integer('discount_ppm').notNull().default(0),
  amountCents: money('amount_cents').notNull(),
  cardBrand: text('card_brand'),
  cardLast4: text('card_last4'),
  journalId: uuid('journal_id'),
  createdAt: createdAt(),
  ...demoFlags(),
});

// Events (docs/rules.md#webhooks, decision 191): what happened to a user's objects, each written by
// the statement or transaction that made the change it reports, so an event exists exactly when
// its change committed. `data` is the object as the API shows it (never a card number or CVV).
// `fanned_out_at` is set once the dispatcher has made the event's deliveries (none without endpoints).
export const events = pgTable(
  'events',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    createdAt: createdAt(),
    data: jsonb('data').notNull(),
    fannedOutAt: ts('fanned_out_at'),
  },
  (t) => [
    index('events_user_idx').on(t.userId, t.createdAt),
    index('events_unfanned_idx').on(t.createdAt).where(sql`${t.fannedOutAt} is null`),
  ],
);

// A user's webhook receivers. The signing secret is encrypted at rest (lib/card-crypto.ts, bound to
// the endpoint's id); after a rotation the previous one signs too for 24 h (core/webhook-schedule.ts).
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    secretEnc: text('secret_enc').notNull(),
    previousSecretEnc: text('previous_secret_enc'),
    rotatedAt: ts('rotated_at'),
    status: text('status').notNull().default('enabled'),
    disabledReason: text('disabled_reason'),
    disabledAt: ts('disabled_at'),
    firstFailureAt: ts('first_failure_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_endpoints_user_idx').on(t.userId, t.createdAt),
    check('webhook_endpoints_status_check', sql`${t.status} in ('enabled', 'disabled')`),
    check('webhook_endpoints_reason_check', sql`${t.disabledReason} is null or ${t.disabledReason} in ('gone', 'failing_too_long')`),
  ],
);

// One event to one endpoint. `attempt_log` holds each attempt (time, status, duration, the answer's
// first bytes, error); pending ones are due at `next_attempt_at` (a claim's lease, then the retry
// schedule); delivered or failed (every attempt spent) ones are the endpoint's log.
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    attemptLog: jsonb('attempt_log').notNull().default([]),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    createdAt: createdAt(),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
    index('webhook_deliveries_event_idx').on(t.eventId),
    check('webhook_deliveries_status_check', sql`${t.status} in ('pending', 'delivered', 'failed')`),
  ],
);
