// How long a draft combine lives (decision 163). A draft's card sources are pre-authorised when
// added, so a draft someone walked away from holds their money. Two rules keep that visible and
// bounded:
// - a draft left unsaved (the tab closed mid-wizard) is saved for later after an hour of
//   inactivity, so /resume-combine lists it and the user can continue or delete it;
// - every draft is deleted, and its holds voided, 7 days after it was started: card networks let
//   a pre-authorisation lapse after about 7 days, and a capture after that is not guaranteed.
import { addDays, MS_PER_DAY } from './dates';
import { refuse, type Refusal } from './money-plan';

/** An `in_progress` draft untouched this long is saved for later (status `incomplete`). */
export const UNSAVED_DRAFT_IDLE_MS = 60 * 60 * 1000;
/** Days from a draft's start until it is deleted and its holds are voided. */
export const DRAFT_LIFETIME_DAYS = 7;

/** The moment a draft started at `createdAt` is deleted. */
export function draftKeptUntil(createdAt: Date): Date {
  return addDays(createdAt, DRAFT_LIFETIME_DAYS);
}

export const DRAFT_EXPIRED_MESSAGE = `This combine was kept for ${DRAFT_LIFETIME_DAYS} days and has expired: its holds are being released. Start a new card.`;

/**
 * A draft past its lifetime is refused anything but deletion, even in the minutes before the job
 * deletes it: "Kept until" is the moment it stops, not the moment the job happens to run.
 */
export function expiredDraftRefusal(createdAt: Date, now: Date): Refusal | null {
  return now.getTime() >= draftKeptUntil(createdAt).getTime() ? refuse(409, 'draft_expired', DRAFT_EXPIRED_MESSAGE) : null;
}

/** Drafts started before this moment are due for deletion at `now`. */
export function draftLifetimeCutoff(now: Date): Date {
  return new Date(now.getTime() - DRAFT_LIFETIME_DAYS * MS_PER_DAY);
}

/** Unsaved drafts last changed before this moment are due to be saved for later at `now`. */
export function unsavedDraftIdleCutoff(now: Date): Date {
  return new Date(now.getTime() - UNSAVED_DRAFT_IDLE_MS);
}
