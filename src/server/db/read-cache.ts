// An in-process cache of the two reads that every signed-in page makes again and again: the
// session behind a cookie and the user's card list (decision 017). The database stays the
// authority, and an entry is forgotten as soon as a committed change makes it wrong, on this
// instance at once and on the others through the change bus (db/change-bus.ts). While the bus
// cannot promise that (its listening connection is down), the cache is off and every read goes to
// the database.
import type { cards, sessions } from './schema';

export type SessionRow = typeof sessions.$inferSelect;
export type CardRow = typeof cards.$inferSelect;

/** What a committed change made stale. */
export type Change =
  | { kind: 'session'; sessionId: string }
  | { kind: 'sessions-of'; userId: string }
  | { kind: 'cards-of'; userId: string }
  | { kind: 'everything' };

/** A bound on staleness should an invalidation ever be lost (a message dropped with its connection). */
export const READ_CACHE_MAX_AGE_MS = 10_000;
/** A bound on memory: past it the oldest entries go first (Map keeps insertion order). */
export const READ_CACHE_MAX_ENTRIES = 20_000;

type Entry<T> = { value: T; storedAtMs: number };

export class ReadCache {
  private enabled: boolean;
  private readonly sessionsByTokenHash = new Map<string, Entry<SessionRow>>();
  /** Which token hashes a user's and a session's entries are under, to forget them by id. */
  private readonly tokenHashesByUser = new Map<string, Set<string>>();
  private readonly tokenHashBySession = new Map<string, string>();
  /** Card lists by user, then by the list's filter. */
  private readonly cardsByUser = new Map<string, Entry<Map<string, CardRow[]>>>();
  // A load that began before a change may return what the change replaced: it may answer its own
  // request, but it must not be stored. Sessions: any session change bumps the epoch (loads do not
  // know their user until they return; session changes are rare). Cards: each user's latest load
  // holds a ticket that a change of that user's cards takes away.
  private sessionEpoch = 0;
  private readonly cardTickets = new Map<string, symbol>();

  private readonly clockMs: () => number;
  private readonly maxEntries: number;

  constructor(options: { enabled: boolean; clockMs?: () => number; maxEntries?: number }) {
    this.enabled = options.enabled;
    this.clockMs = options.clockMs ?? (() => performance.now());
    this.maxEntries = options.maxEntries ?? READ_CACHE_MAX_ENTRIES;
  }

  get isEnabled(): boolean {
    return this.enabled;
  }

  /** Turns the cache on or off; either way it starts again empty. */
  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
    this.clear();
  }

  /** The cached session under the token's hash, if `usable` accepts it: no promise on the common path. */
  cachedSession(tokenHash: string, usable: (row: SessionRow) => boolean): SessionRow | undefined {
    const hit = this.fresh(this.sessionsByTokenHash.get(tokenHash));
    return hit && usable(hit) ? hit : undefined;
  }

  /** The session stored under the token's hash, read from the cache when `usable` accepts the cached row. */
  async session(tokenHash: string, usable: (row: SessionRow) => boolean, load: () => Promise<SessionRow | undefined>): Promise<SessionRow | undefined> {
    const hit = this.cachedSession(tokenHash, usable);
    if (hit) return hit;
    const epoch = this.sessionEpoch;
    const row = await load();
    if (row && this.enabled && epoch === this.sessionEpoch) this.storeSession(tokenHash, row);
    return row;
  }

  /** After this instance wrote the session's last_seen_at: keep the cached row in step (no one else needs to know). */
  sessionSeen(tokenHash: string, lastSeenAt: Date): void {
    const entry = this.sessionsByTokenHash.get(tokenHash);
    if (entry) entry.value = { ...entry.value, lastSeenAt };
  }

  /** The user's cards as `load` reads them for `filter`. */
  async cards(userId: string, filter: string, load: () => Promise<CardRow[]>): Promise<CardRow[]> {
    const entry = this.cardsByUser.get(userId);
    const hit = this.fresh(entry)?.get(filter);
    if (hit) return hit;
    const ticket = Symbol(userId);
    this.cardTickets.set(userId, ticket);
    try {
      const rows = await load();
      if (this.enabled && this.cardTickets.get(userId) === ticket) {
        const current = this.cardsByUser.get(userId);
        const lists = current && this.fresh(current) ? current.value : new Map<string, CardRow[]>();
        lists.set(filter, rows);
        if (lists !== current?.value) this.remember(this.cardsByUser, userId, lists);
      }
      return rows;
    } finally {
      if (this.cardTickets.get(userId) === ticket) this.cardTickets.delete(userId);
    }
  }

  forget(change: Change): void {
    switch (change.kind) {
      case 'session': {
        this.sessionEpoch += 1;
        const tokenHash = this.tokenHashBySession.get(change.sessionId);
        if (tokenHash) this.dropSession(tokenHash);
        return;
      }
      case 'sessions-of': {
        this.sessionEpoch += 1;
        for (const tokenHash of this.tokenHashesByUser.get(change.userId) ?? []) this.dropSession(tokenHash);
        return;
      }
      case 'cards-of':
        this.cardsByUser.delete(change.userId);
        this.cardTickets.delete(change.userId);
        return;
      case 'everything':
        this.clear();
        return;
    }
  }

  private clear(): void {
    this.sessionEpoch += 1;
    this.sessionsByTokenHash.clear();
    this.tokenHashesByUser.clear();
    this.tokenHashBySession.clear();
    this.cardsByUser.clear();
    this.cardTickets.clear();
  }

  private fresh<T>(entry: Entry<T> | undefined): T | undefined {
    if (!this.enabled || !entry) return undefined;
    return this.clockMs() - entry.storedAtMs < READ_CACHE_MAX_AGE_MS ? entry.value : undefined;
  }

  private storeSession(tokenHash: string, row: SessionRow): void {
    this.dropSession(tokenHash);
    this.remember(this.sessionsByTokenHash, tokenHash, row, (evicted) => this.dropSession(evicted));
    let ofUser = this.tokenHashesByUser.get(row.userId);
    if (!ofUser) this.tokenHashesByUser.set(row.userId, (ofUser = new Set()));
    ofUser.add(tokenHash);
    this.tokenHashBySession.set(row.id, tokenHash);
  }

  private dropSession(tokenHash: string): void {
    const entry = this.sessionsByTokenHash.get(tokenHash);
    if (!entry) return;
    this.sessionsByTokenHash.delete(tokenHash);
    this.tokenHashBySession.delete(entry.value.id);
    const ofUser = this.tokenHashesByUser.get(entry.value.userId);
    ofUser?.delete(tokenHash);
    if (ofUser?.size === 0) this.tokenHashesByUser.delete(entry.value.userId);
  }

  private remember<T>(map: Map<string, Entry<T>>, key: string, value: T, onEvict: (key: string) => void = (k) => map.delete(k)): void {
    map.delete(key);
    map.set(key, { value, storedAtMs: this.clockMs() });
    while (map.size > this.maxEntries) {
      const oldest = map.keys().next().value as string;
      onEvict(oldest);
      map.delete(oldest);
    }
  }
}
