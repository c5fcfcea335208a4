// Draft combines: everything before "Create Virtual Card". Each function is one use case; the
// card data of a source goes to the processor once and only brand, last 4, expiry and the
// processor's token are kept (docs/rules.md#cards).
import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, gt, gte, sql } from 'drizzle-orm';
import { computeCombineTotal } from '../../../core/amount';
import { centsToInputString, formatUsd } from '../../../core/money';
import { checkSourceForm, detectBrand, last4, validateBnplCardEntry } from '../../../core/cards';
import type { SourceFormField } from '../../../core/cards';
import { sourceCardRefusal } from '../../../core/plan-completion';
import { isSourceNetPositive, FEE_MESSAGES } from '../../../core/fees';
import { rangeStart } from '../../../core/dates';
import { draftKeptUntil, draftLifetimeCutoff, expiredDraftRefusal } from '../../../core/draft-lifetime';
import { creationFeeIndexAfterRemoval } from '../../../core/wizard-flow';
import { checkMonthlyLimit, monthStartUtc } from '../../../core/limits';
import { PLANS } from '../../../core/plans';
import type { PlanId } from '../../../core/plans';
import type { AddSourceRequest, Combine, CombineSummary } from '../../../contracts/combines';
import type { Adapters } from '../../adapters';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { EffectDrain } from '../../effects/drain';
import { cards, combineSources, combines, users } from '../../db/schema';
import { AppError, badRequest, conflict, forbidden, liveModeNotImplemented, refusalError, unauthorized } from '../../lib/errors';
import { inTransaction } from '../../lib/transaction';
import { effectReference, enqueueEffects, type MoneyEffect } from '../../effects/money-effects';
import { buildCombineView, loadCombine, loadSources, sourceKind, type CombineRow } from './combine-view';
import { loadPricing, loadUser } from './pricing';

export const MAX_SOURCES = 10;
const TOO_MANY_SOURCES_MESSAGE = `A combine can have at most ${MAX_SOURCES} payment sources.`;
export const DRAFT_STATUSES = ['in_progress', 'incomplete'] as const;
export const NOT_A_DRAFT_MESSAGE = 'This combine is already completed and can no longer be changed.';
export const ADD_SOURCE_FAILED = 'Failed to add payment source';

// What the use cases below take from the app, each only the pieces it uses.
type Reads = { db: Db; now(): Date };
type Mode = { config: Pick<Config, 'demoMode'> };
/** Holds voided from the outbox are carried out after the commit. */
type Kicks = { effects: Pick<EffectDrain, 'kick'> };
type Preauthorizes = { adapters: Pick<Adapters, 'delay' | 'cardProcessor'> };

function assertDraft(row: CombineRow) {
  if (!(DRAFT_STATUSES as readonly string[]).includes(row.status)) throw conflict(NOT_A_DRAFT_MESSAGE, 'not_a_draft');
}

/** A draft that can still move forward: a draft, and not past its 7 days (decision 163). Deleting it stays allowed. */
function assertLiveDraft(row: CombineRow, now: Date) {
  assertDraft(row);
  const expired = expiredDraftRefusal(row.createdAt, now);
  if (expired) throw refusalError(expired);
}

function assertDemo(demoMode: boolean) {
  if (!demoMode) throw liveModeNotImplemented();
}

function demoFlags(demo: boolean) {
  return { simulated: demo, testSource: demo ? 'MVP-Demo' : '', environment: demo ? 'test' : 'production' };
}

export async function viewCombine(deps: Reads, userId: string, combineId: string): Promise<Combine> {
  const row = await loadCombine(deps.db, userId, combineId);
  const [user, sources] = await Promise.all([loadUser(deps.db, userId), loadSources(deps.db, combineId)]);
  return buildCombineView(deps.db, row, sources, await loadPricing(deps.db, user, row.totalAmountCents, deps.now()));
}

function totalFrom(input: { baseInput: string; bufferInput: string; bufferMode: 'percent' | 'dollars' }) {
  const result = computeCombineTotal(input);
  if (!result.ok) throw badRequest(result.message);
  return result;
}

/**
 * The monthly combine limit, told before anything happens: a new combine and every
 * pre-authorisation are refused once this month's completed combines reach the plan's limit, so
 * no card is held for a combine that could never complete. Completion checks again inside its
 * transaction (complete-combine.ts); this earlier check only spares the user the wasted steps.
 */
async function assertMonthlyAllowance(deps: Reads, userId: string, plan: string): Promise<void> {
  const planId = plan as PlanId;
  if (PLANS[planId].monthlyCombineLimit === null) return;
  const [counted] = await deps.db
    .select({ completed: count() })
    .from(combines)
    .where(and(eq(combines.userId, userId), eq(combines.status, 'completed'), gte(combines.completedAt, monthStartUtc(deps.now()))));
  const limit = checkMonthlyLimit({ plan: planId, completedThisMonth: Number(counted?.completed ?? 0) });
  if (!limit.ok) throw forbidden(limit.message, 'limit_reached');
}

export async function createCombine(
  deps: Reads & Mode,
  userId: string,
  input: { baseInput: string; bufferInput: string; bufferMode: 'percent' | 'dollars' },
): Promise<Combine> {
  const total = totalFrom(input);
  await assertMonthlyAllowance(deps, userId, (await loadUser(deps.db, userId)).subscription);
  const [row] = await inTransaction(deps.db, async (tx) => {
    // The account's row shared (decision 165): a closing, which locks it for update before it
    // deletes the drafts, either waits for this one and deletes it too, or has committed, and a
    // closed account starts nothing (its holds would outlive it, and a completion fund a card).
    const [account] = await tx.select({ closedAt: users.closedAt }).from(users).where(eq(users.id, userId)).for('share');
    if (!account || account.closedAt) throw unauthorized();
    return tx
      .insert(combines)
      .values({
        userId,
        status: 'in_progress',
        baseAmountCents: total.baseCents,
        taxBufferCents: total.taxBufferCents,
        totalAmountCents: total.totalCents,
        includeTaxBuffer: total.taxBufferCents > 0,
        baseInput: input.baseInput.trim(),
        bufferInput: input.bufferInput.trim(),
        bufferMode: input.bufferMode,
        currentStep: 2,
        // The app's clock, like every later change of the draft: its lifetime is counted from here (decision 163).
        createdAt: deps.now(),
        updatedAt: deps.now(),
        ...demoFlags(deps.config.demoMode),
      })
      .returning({ id: combines.id });
  });
  if (!row) throw new Error('combine insert returned nothing');
  return viewCombine(deps, userId, row.id);
}

export type CombinePatch = Partial<{
  baseInput: string;
  bufferInput: string;
  bufferMode: 'percent' | 'dollars';
  currentStep: number;
  bnplStepCompleted: boolean;
  useBoost: boolean;
  creationFeeSourceIdx: number;
  cardType: 'general' | 'single-use';
  formData: Record<string, unknown>;
}>;

export async function updateCombine(deps: Reads, userId: string, combineId: string, patch: CombinePatch): Promise<Combine> {
  await inTransaction(deps.db, async (tx) => {
    const row = await loadCombine(tx, userId, combineId, { forUpdate: true });
    assertLiveDraft(row, deps.now());
    const changes: Partial<typeof combines.$inferInsert> = { updatedAt: deps.now() };
    if (patch.baseInput !== undefined || patch.bufferInput !== undefined || patch.bufferMode !== undefined) {
      const amount = {
        baseInput: patch.baseInput ?? row.baseInput,
        bufferInput: patch.bufferInput ?? row.bufferInput,
        bufferMode: patch.bufferMode ?? (row.bufferMode as 'percent' | 'dollars'),
      };
      const total = totalFrom(amount);
      Object.assign(changes, {
        baseInput: amount.baseInput.trim(),
        bufferInput: amount.bufferInput.trim(),
        bufferMode: amount.bufferMode,
        baseAmountCents: total.baseCents,
        taxBufferCents: total.taxBufferCents,
        totalAmountCents: total.totalCents,
        includeTaxBuffer: total.taxBufferCents > 0,
      });
    }
    if (patch.creationFeeSourceIdx !== undefined) {
      const count = (await loadSources(tx, combineId)).length;
      if (patch.creationFeeSourceIdx >= count) throw badRequest('Choose one of the added sources, or the new card, to pay the card-creation fee.');
      changes.creationFeeSourceIdx = patch.creationFeeSourceIdx;
    }
    if (patch.currentStep !== undefined) changes.currentStep = patch.currentStep;
    if (patch.bnplStepCompleted !== undefined) changes.bnplStepCompleted = patch.bnplStepCompleted;
    if (patch.useBoost !== undefined) changes.useBoost = patch.useBoost;
    if (patch.cardType !== undefined) changes.cardType = patch.cardType;
    if (patch.formData !== undefined) changes.formData = sanitiseFormData(patch.formData);
    await tx.update(combines).set(changes).where(eq(combines.id, combineId));
  });
  return viewCombine(deps, userId, combineId);
}

// The wizard may stash its UI state in formData, but never card data (docs/rules.md#cards): drop any
// field named like a card number or a security code, whatever the client calls it, and any long
// run of digits, written as text or as a JSON number.
const FORBIDDEN_KEYS = /card.?number|^number$|^pan$|cvv|cvc|cvn|^csc$|^cid$|security.?code|verification.?(code|value)/i;
/** No amount the wizard keeps reaches 12 digits; a card number has at least 13. */
const LONGEST_KEPT_NUMBER = 99_999_999_999;
export function sanitiseFormData(formData: Record<string, unknown>): Record<string, unknown> {
  const clean = (value: unknown, depth: number): unknown => {
    if (depth > 5) return null;
    if (Array.isArray(value)) return value.slice(0, 50).map((v) => clean(v, depth + 1));
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value as Record<string, unknown>)
          .filter(([k]) => !FORBIDDEN_KEYS.test(k))
          .slice(0, 100)
          .map(([k, v]) => [k, clean(v, depth + 1)]),
      );
    }
    if (typeof value === 'string') return /\d{12,}/.test(value.replace(/[\s-]/g, '')) ? '' : value.slice(0, 500);
    if (typeof value === 'number' && Math.abs(value) > LONGEST_KEPT_NUMBER) return null;
    return value;
  };
  const result = clean(formData, 0) as Record<string, unknown>;
  if (JSON.stringify(result).length > 20_000) throw badRequest('The saved form data is too large.');
  return result;
}

export async function saveCombine(deps: Reads, userId: string, combineId: string, input: { currentStep?: number; formData?: Record<string, unknown> }): Promise<Combine> {
  await inTransaction(deps.db, async (tx) => {
    const row = await loadCombine(tx, userId, combineId, { forUpdate: true });
    assertLiveDraft(row, deps.now());
    await tx
      .update(combines)
      .set({
        status: 'incomplete',
        savedAt: deps.now(),
        updatedAt: deps.now(),
        ...(input.currentStep !== undefined ? { currentStep: input.currentStep } : {}),
        ...(input.formData !== undefined ? { formData: sanitiseFormData(input.formData) } : {}),
      })
      .where(eq(combines.id, combineId));
  });
  return viewCombine(deps, userId, combineId);
}

export async function deleteCombine(deps: { db: Db } & Kicks, userId: string, combineId: string): Promise<void> {
  await inTransaction(deps.db, async (tx) => {
    const row = await loadCombine(tx, userId, combineId, { forUpdate: true });
    if (!(DRAFT_STATUSES as readonly string[]).includes(row.status)) throw conflict('A completed combine cannot be deleted.', 'not_a_draft');
    const sources = await loadSources(tx, combineId);
    await tx.delete(combines).where(eq(combines.id, combineId));
    await enqueueEffects(tx, voidEffects(userId, combineId, sources));
  });
  // The holds are voided after the commit (docs/rules.md#outside-effects), from the rows written with the delete.
  deps.effects.kick();
}

/** A void for every hold the sources made (the card's and the BNPL one-time card's). */
export function voidEffects(userId: string, combineId: string, sources: Array<{ authorizationId: string | null; bnplTransactionId: string | null }>): MoneyEffect[] {
  return sources
    .flatMap((s) => [s.authorizationId, s.bnplTransactionId])
    .filter((id): id is string => Boolean(id))
    .map((authorizationId) => ({ kind: 'void', reference: effectReference.void(authorizationId), userId, payload: { authorizationId, combineId } }));
}

// docs/rules.md#outside-effects: a hold is asked for before the transaction that records it, with a reference of
// its own the processor keeps (add-source requests carry no Idempotency-Key, so each asks anew).
const preauthorizationReference = (combineId: string) => `preauth:${combineId}:${randomUUID()}`;

// A refused add-source field as schema refusals name it in `details` (JSON pointers into the request), so a
// client marks the field it belongs to without reading the message: the expiry is the month and the year.
const API_PATHS_OF_FIELD: Readonly<Record<SourceFormField, readonly string[]>> = {
  type: ['/type'],
  provider: ['/provider'],
  amount: ['/chargeCents'],
  cardNumber: ['/cardNumber'],
  expiry: ['/expMonth', '/expYear'],
  cvv: ['/cvv'],
};

export async function addSource(deps: Reads & Mode & Kicks & Preauthorizes, userId: string, combineId: string, input: AddSourceRequest): Promise<Combine> {
  assertDemo(deps.config.demoMode);
  const row = await loadCombine(deps.db, userId, combineId);
  assertLiveDraft(row, deps.now());
  const existing = await loadSources(deps.db, combineId);
  if (existing.length >= MAX_SOURCES) throw badRequest(TOO_MANY_SOURCES_MESSAGE);
  const user = await loadUser(deps.db, userId);
  // Before any pre-authorisation: a held card for a combine that cannot complete helps no one.
  if (input.type !== 'internal') await assertMonthlyAllowance(deps, userId, user.subscription);
  const pricing = await loadPricing(deps.db, user, row.totalAmountCents, deps.now());

  let values: Omit<typeof combineSources.$inferInsert, 'combineId' | 'userId' | 'position'>;
  if (input.type === 'internal') {
    values = await internalSourceValues(deps, userId, input);
    assertNetPositive(values, pricing.baseProductFeePpm);
  } else {
    const form = checkSourceForm(
      {
        type: input.type,
        provider: input.provider,
        amountInput: centsToInputString(input.chargeCents),
        cardNumber: input.type === 'bnpl' ? '' : input.cardNumber,
        expiryMonth: input.type === 'bnpl' ? '' : String(input.expMonth),
        expiryYear: input.type === 'bnpl' ? '' : String(input.expYear),
        cvv: input.type === 'bnpl' ? '' : input.cvv,
      },
      deps.now(),
    );
    if (!form.ok) throw badRequest(form.message, API_PATHS_OF_FIELD[form.field].map((path) => ({ path, message: form.message })));
    values = { type: form.type, provider: form.provider, chargeCents: form.chargeCents };
    // Before the processor is asked (docs/rules.md#outside-effects): a source refused here must leave no hold.
    assertNetPositive(values, pricing.baseProductFeePpm);
    if (form.card) {
      await deps.adapters.delay('preAuthorization');
      const auth = await deps.adapters.cardProcessor.preauthorize({
        reference: preauthorizationReference(combineId),
        cardNumber: form.card.number,
        expMonth: form.card.expiryMonth,
        expYear: form.card.expiryYear,
        cvv: form.card.cvv,
        amountCents: form.chargeCents,
      });
      if (!auth.ok) throw new AppError(402, auth.code, auth.message);
      values = {
        ...values,
        brand: detectBrand(form.card.number),
        last4: last4(form.card.number),
        expMonth: form.card.expiryMonth,
        expYear: form.card.expiryYear,
        token: auth.token,
        authorizationId: auth.authorizationId,
      };
    }
  }
  await recordingHold(deps, userId, combineId, values.authorizationId ?? null, () => inTransaction(deps.db, async (tx) => {
    const current = await loadCombine(tx, userId, combineId, { forUpdate: true });
    assertLiveDraft(current, deps.now());
    // Counted again under the draft's lock: two sources added at once must not make eleven.
    if ((await loadSources(tx, combineId)).length >= MAX_SOURCES) throw badRequest(TOO_MANY_SOURCES_MESSAGE);
    const [{ next } = { next: 0 }] = await tx
      .select({ next: sql<number>`coalesce(max(${combineSources.position}) + 1, 0)::int` })
      .from(combineSources)
      .where(eq(combineSources.combineId, combineId));
    await tx.insert(combineSources).values({ ...values, combineId, userId, position: next });
    // A new BNPL source needs its own one-time card before the review.
    const changes: Partial<typeof combines.$inferInsert> = { updatedAt: deps.now() };
    if (values.type === 'bnpl') changes.bnplCheckoutCompleted = false;
    await tx.update(combines).set(changes).where(eq(combines.id, combineId));
  }));
  return viewCombine(deps, userId, combineId);
}

function assertNetPositive(values: { type: string; chargeCents: number }, productFeePpm: number) {
  if (!isSourceNetPositive(values.chargeCents, productFeePpm, sourceKind(values.type))) throw badRequest(FEE_MESSAGES.sourceTooSmall);
}

/**
 * Runs the write that records a hold just made. When that write is refused (the draft was deleted,
 * completed or expired meanwhile, or the source removed), nothing will ever capture or void the
 * hold, so it is voided from the outbox now. A database failure is not a refusal: the commit may
 * have happened, and voiding a recorded hold would break its capture, so that hold is left to lapse.
 */
async function recordingHold<T>(deps: { db: Db } & Kicks, userId: string, combineId: string, authorizationId: string | null, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (authorizationId && error instanceof AppError && error.statusCode < 500) {
      await enqueueEffects(deps.db, voidEffects(userId, combineId, [{ authorizationId, bnplTransactionId: null }]));
      deps.effects.kick();
    }
    throw error;
  }
}

async function internalSourceValues(deps: Reads, userId: string, input: Extract<AddSourceRequest, { type: 'internal' }>) {
  const [card] = await deps.db.select().from(cards).where(and(eq(cards.id, input.sourceCardId), eq(cards.userId, userId)));
  if (!card) throw new AppError(404, 'not_found', 'Card not found.');
  // The same rule as at completion (core/plan-completion.ts): active, unfrozen, unexpired, not empty.
  const refusal = sourceCardRefusal(card, 0, deps.now());
  if (refusal) throw badRequest(refusal.message);
  if (input.chargeCents > card.remainingAmountCents) {
    throw badRequest(`Amount cannot exceed remaining balance (${formatUsd(card.remainingAmountCents)})`);
  }
  return { type: 'internal', provider: 'payweave', chargeCents: input.chargeCents, brand: card.network, last4: card.last4, sourceCardId: card.id };
}

export async function removeSource(deps: Reads & Kicks, userId: string, combineId: string, sourceId: string): Promise<Combine> {
  await inTransaction(deps.db, async (tx) => {
    const row = await loadCombine(tx, userId, combineId, { forUpdate: true });
    assertDraft(row);
    const sources = await loadSources(tx, combineId);
    const index = sources.findIndex((s) => s.id === sourceId);
    const source = sources[index];
    if (!source) throw new AppError(404, 'not_found', 'Payment source not found.');
    await tx.delete(combineSources).where(eq(combineSources.id, sourceId));
    const remaining = sources.filter((s) => s.id !== sourceId);
    const hasBnpl = remaining.some((s) => s.type === 'bnpl');
    await tx
      .update(combines)
      .set({
        updatedAt: deps.now(),
        creationFeeSourceIdx: creationFeeIndexAfterRemoval(row.creationFeeSourceIdx, index),
        bnplStepCompleted: hasBnpl ? row.bnplStepCompleted : false,
        bnplCheckoutCompleted: hasBnpl ? remaining.filter((s) => s.type === 'bnpl').every((s) => s.bnplCardToken) : false,
      })
      .where(eq(combines.id, combineId));
    await enqueueEffects(tx, voidEffects(userId, combineId, [source]));
  });
  deps.effects.kick();
  return viewCombine(deps, userId, combineId);
}

export async function addBnplCard(
  deps: Reads & Mode & Kicks & Preauthorizes,
  userId: string,
  combineId: string,
  sourceId: string,
  input: { cardNumber: string; expiry: string; cvv: string },
): Promise<Combine> {
  assertDemo(deps.config.demoMode);
  const row = await loadCombine(deps.db, userId, combineId);
  assertLiveDraft(row, deps.now());
  const sources = await loadSources(deps.db, combineId);
  const source = sources.find((s) => s.id === sourceId);
  if (!source || source.type !== 'bnpl') throw new AppError(404, 'not_found', 'BNPL source not found.');
  const entry = validateBnplCardEntry(input, deps.now());
  if (!entry.ok) throw badRequest(entry.message);
  const view = await viewCombine(deps, userId, combineId);
  const oneTime = view.sources.find((s) => s.id === sourceId)?.oneTimeCardChargeCents ?? source.chargeCents;
  await deps.adapters.delay('preAuthorization');
  const auth = await deps.adapters.cardProcessor.preauthorize({
    reference: preauthorizationReference(combineId),
    cardNumber: entry.number,
    expMonth: entry.expiryMonth,
    expYear: entry.expiryYear,
    cvv: entry.cvv,
    amountCents: oneTime,
  });
  if (!auth.ok) throw new AppError(402, auth.code, auth.message);
  await recordingHold(deps, userId, combineId, auth.authorizationId, () => inTransaction(deps.db, async (tx) => {
    const current = await loadCombine(tx, userId, combineId, { forUpdate: true });
    assertLiveDraft(current, deps.now());
    const before = (await loadSources(tx, combineId)).find((s) => s.id === sourceId);
    if (!before) throw new AppError(404, 'not_found', 'BNPL source not found.');
    await tx
      .update(combineSources)
      .set({ bnplCardBrand: detectBrand(entry.number), bnplCardLast4: last4(entry.number), bnplCardToken: auth.token, bnplTransactionId: auth.authorizationId })
      .where(eq(combineSources.id, sourceId));
    // A one-time card entered again replaces the first: its hold is voided with this commit.
    if (before.bnplTransactionId) await enqueueEffects(tx, voidEffects(userId, combineId, [{ authorizationId: before.bnplTransactionId, bnplTransactionId: null }]));
    const all = await loadSources(tx, combineId);
    const done = all.filter((s) => s.type === 'bnpl').every((s) => s.bnplCardToken);
    await tx.update(combines).set({ bnplCheckoutCompleted: done, bnplStepCompleted: true, updatedAt: deps.now() }).where(eq(combines.id, combineId));
  }));
  deps.effects.kick();
  return viewCombine(deps, userId, combineId);
}

export async function listCombines(
  deps: Reads & Mode,
  userId: string,
  query: { status: 'incomplete' | 'completed'; range: 'all' | '7d' | '1m'; limit: number },
): Promise<CombineSummary[]> {
  const conditions = [eq(combines.userId, userId), eq(combines.status, query.status)];
  // docs/rules.md#combine-limit: in demo mode, draft queries only see simulated combines.
  if (query.status === 'incomplete' && deps.config.demoMode) conditions.push(eq(combines.simulated, true));
  // A draft past its 7 days is not offered to continue, though the job may not have deleted it yet (decision 163).
  if (query.status === 'incomplete') conditions.push(gt(combines.createdAt, draftLifetimeCutoff(deps.now())));
  if (query.range !== 'all') conditions.push(gte(combines.createdAt, rangeStart(query.range, deps.now())));
  const rows = await deps.db
    .select({
      combine: combines,
      sourceCount: sql<number>`(select count(*)::int from ${combineSources} where ${combineSources.combineId} = ${combines.id})`,
      card: cards,
    })
    .from(combines)
    .leftJoin(cards, eq(cards.id, combines.cardId))
    .where(and(...conditions))
    .orderBy(query.status === 'incomplete' ? desc(combines.savedAt) : desc(combines.createdAt))
    .limit(query.limit);
  return rows.map(({ combine: c, sourceCount, card }) => ({
    id: c.id,
    status: c.status as CombineSummary['status'],
    totalAmountCents: c.totalAmountCents,
    sourceCount: Number(sourceCount),
    currentStep: c.currentStep,
    promoApplied: c.promoApplied,
    createdAt: c.createdAt.toISOString(),
    savedAt: c.savedAt ? c.savedAt.toISOString() : null,
    completedAt: c.completedAt ? c.completedAt.toISOString() : null,
    keptUntil: (DRAFT_STATUSES as readonly string[]).includes(c.status) ? draftKeptUntil(c.createdAt).toISOString() : null,
    card: card
      ? { id: card.id, status: card.status, frozen: card.frozen, remainingAmountCents: card.remainingAmountCents, originalAmountCents: card.originalAmountCents, last4: card.last4 }
      : null,
  }));
}


