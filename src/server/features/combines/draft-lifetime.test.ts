// Decision 163: a draft left behind holds the user's money (its sources are pre-authorised), so it
// is saved for later after an hour without a change, and deleted with its holds voided 7 days
// after it was started. Completed combines are never touched.
import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRAFT_EXPIRED_MESSAGE, DRAFT_LIFETIME_DAYS, UNSAVED_DRAFT_IDLE_MS } from '../../../core/draft-lifetime';
import { MS_PER_DAY } from '../../../core/dates';
import { addSource, asUser, createCard, registerUser, sessionCookieFrom, startCombine, TEST_MASTERCARD, TEST_PASSWORD, type ApiUser } from '../../../../tests/helpers/api-client';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { combineSources, combines } from '../../db/schema';
import { checkLedger } from '../../ledger/check-ledger';
import { settleDrafts } from './draft-lifetime';

const MINUTE_MS = 60_000;

describe('drafts left behind', () => {
  let t: TestApp;
  let user: ApiUser;
  const start = new Date();
  let clock = start;
  const at = (ms: number) => {
    clock = new Date(start.getTime() + ms);
  };

  beforeAll(async () => {
    t = await createTestApp({ now: () => clock });
    user = await registerUser(t.app);
  });
  afterAll(async () => {
    if (t) expect((await checkLedger(t.database.db)).problems).toEqual([]);
    await t?.close();
  });

  /** A week on, the first sign-in's session may have ended: a fresh one at the clock's time. */
  async function signInAgain(who: ApiUser): Promise<ApiUser> {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email: who.email, password: TEST_PASSWORD }) });
    if (res.statusCode !== 200) throw new Error(`sign-in ${res.statusCode}: ${res.body}`);
    return asUser(t.app, who.email, sessionCookieFrom(res));
  }
  const statusOf = async (id: string) => (await t.database.db.select({ status: combines.status }).from(combines).where(eq(combines.id, id)))[0]?.status;
  const holdsOf = async (ids: string[]) =>
    (await t.database.db.select().from(combineSources).where(inArray(combineSources.combineId, ids)))
      .flatMap((s) => [s.authorizationId, s.bnplTransactionId])
      .filter((id): id is string => Boolean(id));

  it('an unsaved draft is listed in Resume after an hour without a change, kept 7 days from its start; the draft in use is not; after 7 days every draft goes and its holds are voided once', async () => {
    const completed = await createCard(user, '40');
    expect(completed.statusCode, completed.body).toBe(201);
    const completedId = (completed.json() as { combine: { id: string } }).combine.id;

    // Left at the amount step, and left with a pre-authorised card: both by closing the tab.
    const empty = await startCombine(user, '25', '0');
    const held = await startCombine(user, '100', '0');
    expect((await addSource(user, held.id, { chargeCents: 6_000, cardNumber: TEST_MASTERCARD, provider: 'mastercard' })).statusCode).toBe(201);
    // Saved for later on purpose, with a hold of its own.
    const saved = await startCombine(user, '80', '0');
    expect((await addSource(user, saved.id, { chargeCents: 5_000 })).statusCode).toBe(201);
    expect((await user.request('POST', `/api/combines/${saved.id}/save`, { currentStep: 2 })).statusCode).toBe(200);
    // Still being worked on: a change 40 minutes in.
    const inUse = await startCombine(user, '60', '0');
    at(40 * MINUTE_MS);
    expect((await user.request('PATCH', `/api/combines/${inUse.id}`, { currentStep: 2 })).statusCode).toBe(200);

    at(UNSAVED_DRAFT_IDLE_MS - MINUTE_MS);
    expect(await settleDrafts(t.app)).toEqual({ saved: 0, deleted: 0 });

    at(UNSAVED_DRAFT_IDLE_MS + MINUTE_MS);
    expect(await settleDrafts(t.app)).toEqual({ saved: 2, deleted: 0 });
    expect(await statusOf(inUse.id)).toBe('in_progress');
    const listed = (await user.request('GET', '/api/combines?status=incomplete')).json() as {
      combines: Array<{ id: string; savedAt: string; createdAt: string; keptUntil: string | null }>;
    };
    expect(listed.combines.map((c) => c.id).sort()).toEqual([empty.id, held.id, saved.id].sort());
    for (const draft of listed.combines) {
      expect(new Date(draft.keptUntil ?? '').getTime()).toBe(new Date(draft.createdAt).getTime() + DRAFT_LIFETIME_DAYS * MS_PER_DAY);
    }
    // "Saved" is when the user last worked on it, not when the job noticed.
    const heldSummary = listed.combines.find((c) => c.id === held.id);
    expect(new Date(heldSummary?.savedAt ?? '').getTime()).toBeLessThan(start.getTime() + MINUTE_MS);
    // A draft saved by the job resumes like one saved by hand: the held source is still there.
    const resumed = await user.request('GET', `/api/combines/${held.id}`);
    expect(resumed.json()).toMatchObject({ status: 'incomplete', sources: [expect.objectContaining({ last4: '4444', status: 'authorized' })] });
    const completedList = (await user.request('GET', '/api/combines?status=completed')).json() as { combines: Array<{ id: string; keptUntil: string | null }> };
    expect(completedList.combines).toEqual([expect.objectContaining({ id: completedId, keptUntil: null })]);

    const holds = await holdsOf([held.id, saved.id]);
    expect(holds).toHaveLength(2);
    at(DRAFT_LIFETIME_DAYS * MS_PER_DAY - MINUTE_MS);
    expect((await settleDrafts(t.app)).deleted).toBe(0);
    at(DRAFT_LIFETIME_DAYS * MS_PER_DAY + 41 * MINUTE_MS);
    expect(await settleDrafts(t.app)).toEqual({ saved: 0, deleted: 4 });
    expect(await settleDrafts(t.app)).toEqual({ saved: 0, deleted: 0 });
    await t.app.effects.drain();

    for (const id of [empty.id, held.id, saved.id, inUse.id]) expect(await statusOf(id)).toBeUndefined();
    expect(await statusOf(completedId)).toBe('completed');
    for (const hold of holds) expect(t.calls.effective('processor.release').filter((c) => c.reference === `void:${hold}`)).toHaveLength(1);
  });

  it('a draft past its 7 days is refused everything but deletion, with no card checked and nothing captured', async () => {
    at(0);
    const draft = await startCombine(user, '50', '0');
    expect((await addSource(user, draft.id, { chargeCents: draft.funding.suggestedChargeCents.card })).statusCode).toBe(201);
    expect((await user.request('POST', `/api/combines/${draft.id}/save`, { currentStep: 2 })).statusCode).toBe(200);
    const savedIds = async (who: ApiUser) => ((await who.request('GET', '/api/combines?status=incomplete')).json() as { combines: Array<{ id: string }> }).combines.map((c) => c.id);
    at(DRAFT_LIFETIME_DAYS * MS_PER_DAY - MINUTE_MS);
    expect(await savedIds(await signInAgain(user))).toContain(draft.id);
    at(DRAFT_LIFETIME_DAYS * MS_PER_DAY);
    const user2 = await signInAgain(user);
    // No longer offered to continue, though the job has not deleted it yet.
    expect(await savedIds(user2)).not.toContain(draft.id);
    const checksBefore = t.calls.calls.filter((c) => c.op === 'processor.preauthorize').length;
    const capturesBefore = t.calls.effective('processor.capture').length;
    const refusals = [
      await addSource(user2, draft.id, { chargeCents: 1_000 }),
      await user2.request('PATCH', `/api/combines/${draft.id}`, { currentStep: 2 }),
      await user2.request('POST', `/api/combines/${draft.id}/save`, { currentStep: 2 }),
      await user2.request('POST', `/api/combines/${draft.id}/quote`, { useBoost: false, creationFeeSourceIdx: -1, cardType: 'general' }),
      await user2.request(
        'POST',
        `/api/combines/${draft.id}/complete`,
        { useBoost: false, creationFeeSourceIdx: -1, cardType: 'general', expected: { cardAmountCents: 1, totalChargedCents: 1, productFeeCents: 0 } },
        { 'idempotency-key': randomUUID() },
      ),
    ];
    for (const res of refusals) {
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().error).toEqual({ code: 'draft_expired', message: DRAFT_EXPIRED_MESSAGE });
    }
    expect(t.calls.calls.filter((c) => c.op === 'processor.preauthorize').length).toBe(checksBefore);
    await t.app.effects.drain();
    expect(t.calls.effective('processor.capture').length).toBe(capturesBefore);
    // Deleting it is still the user's to do, and voids its hold.
    const [hold] = await holdsOf([draft.id]);
    expect((await user2.request('DELETE', `/api/combines/${draft.id}`)).statusCode).toBe(204);
    await t.app.effects.drain();
    expect(t.calls.effective('processor.release').filter((c) => c.reference === `void:${hold}`)).toHaveLength(1);
  });

  it('a hold made while its draft is deleted (from another tab) is voided, not left on the card', async () => {
    at(0);
    const draft = await startCombine(user, '100', '0');
    const processor = t.app.adapters.cardProcessor;
    const preauthorize = processor.preauthorize.bind(processor);
    let authorizationId: string | null = null;
    processor.preauthorize = async (input) => {
      const answer = await preauthorize(input);
      if (answer.ok) authorizationId = answer.authorizationId;
      expect((await user.request('DELETE', `/api/combines/${draft.id}`)).statusCode).toBe(204);
      return answer;
    };
    let res;
    try {
      res = await addSource(user, draft.id, { chargeCents: 6_000 });
    } finally {
      processor.preauthorize = preauthorize;
    }
    expect(res.statusCode).toBe(404);
    await t.app.effects.drain();
    expect(authorizationId).toBeTruthy();
    expect(t.calls.effective('processor.release').filter((c) => c.reference === `void:${authorizationId}`)).toHaveLength(1);
  });

  it('a source too small to add anything is refused before its card is checked', async () => {
    at(0);
    const draft = await startCombine(user, '100', '0');
    const checksBefore = t.calls.calls.filter((c) => c.op === 'processor.preauthorize').length;
    const res = await addSource(user, draft.id, { chargeCents: 1 });
    expect(res.statusCode).toBe(400);
    expect(t.calls.calls.filter((c) => c.op === 'processor.preauthorize').length).toBe(checksBefore);
  });
});
