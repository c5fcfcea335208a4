// Decision 163: a draft left behind holds the user's money (its sources are pre-authorised), so it
// is saved for later after an hour without a change, and deleted with its holds voided 7 days
// after it was started. Completed combines are never touched.
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRAFT_LIFETIME_DAYS, UNSAVED_DRAFT_IDLE_MS } from '../../../core/draft-lifetime';
import { MS_PER_DAY } from '../../../core/dates';
import { addSource, createCard, registerUser, startCombine, TEST_MASTERCARD, type ApiUser } from '../../../../tests/helpers/api-client';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { requireEngine, testEngine } from '../../../../tests/helpers/test-db';
import { combineSources, combines } from '../../db/schema';
import { checkLedger } from '../../ledger/check-ledger';
import { settleDrafts } from './draft-lifetime';

const run = await requireEngine();
const MINUTE_MS = 60_000;

describe.skipIf(!run)(`drafts left behind (${testEngine()})`, () => {
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
});
