import { describe, expect, it } from 'vitest';
import { draftKeptUntil, draftLifetimeCutoff, unsavedDraftIdleCutoff } from './draft-lifetime';

describe('draft lifetime (decision 163)', () => {
  const now = new Date('2026-11-27T12:00:00.000Z');

  it('keeps a draft 7 days from its start, to the millisecond', () => {
    expect(draftKeptUntil(new Date('2026-11-27T09:30:00.000Z')).toISOString()).toBe('2026-12-04T09:30:00.000Z');
  });

  it('is due for deletion exactly when its 7 days have passed, not a moment before', () => {
    const cutoff = draftLifetimeCutoff(now);
    expect(cutoff.toISOString()).toBe('2026-11-20T12:00:00.000Z');
    expect(draftKeptUntil(cutoff).getTime()).toBe(now.getTime());
  });

  it('saves an unsaved draft after an hour without a change', () => {
    expect(unsavedDraftIdleCutoff(now).toISOString()).toBe('2026-11-27T11:00:00.000Z');
  });
});
