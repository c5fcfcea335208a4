// The read cache's promises (decision 017): what it serves, and that a change always wins over a
// read that was under way when the change was made.
import { describe, expect, it } from 'vitest';
import { batchPayloads, decodeChanges, encodeChange } from './change-bus';
import { READ_CACHE_MAX_AGE_MS, ReadCache, type CardRow, type SessionRow } from './read-cache';

const USER_A = '00000000-0000-4000-8000-00000000000a';
const USER_B = '00000000-0000-4000-8000-00000000000b';

function sessionRow(id: string, userId: string): SessionRow {
  const now = new Date();
  return { id, userId, tokenHash: `hash-${id}`, remember: false, createdAt: now, lastSeenAt: now, expiresAt: now, reauthenticatedAt: null, userAgent: null, ip: null };
}
const cardRow = (id: string) => ({ id }) as CardRow;

/** A load that the test finishes when it wants, counting how often the cache asked for it. */
function loader<T>(value: T) {
  let calls = 0;
  let release: () => void = () => {};
  return {
    get calls() {
      return calls;
    },
    now: async () => {
      calls += 1;
      return value;
    },
    held: () => {
      calls += 1;
      return new Promise<T>((resolve) => (release = () => resolve(value)));
    },
    release: () => release(),
  };
}

function cacheWithClock(enabled = true) {
  let ms = 0;
  const cache = new ReadCache({ enabled, clockMs: () => ms });
  return { cache, advance: (by: number) => (ms += by) };
}

const live = () => true;

describe('ReadCache: sessions', () => {
  it('serves a stored session until it is older than the maximum age', async () => {
    const { cache, advance } = cacheWithClock();
    const load = loader(sessionRow('s1', USER_A));
    await cache.session('h1', live, load.now);
    await cache.session('h1', live, load.now);
    expect(load.calls).toBe(1);
    advance(READ_CACHE_MAX_AGE_MS);
    await cache.session('h1', live, load.now);
    expect(load.calls).toBe(2);
  });

  it('reads the database again when the cached row is not usable (no longer live as cached)', async () => {
    const { cache } = cacheWithClock();
    const load = loader(sessionRow('s1', USER_A));
    await cache.session('h1', live, load.now);
    await cache.session('h1', () => false, load.now);
    expect(load.calls).toBe(2);
  });

  it('does not store a missing session', async () => {
    const { cache } = cacheWithClock();
    const load = loader<SessionRow | undefined>(undefined);
    await cache.session('h1', live, load.now);
    await cache.session('h1', live, load.now);
    expect(load.calls).toBe(2);
  });

  it('forgets a session by its id, and every session of a user, leaving the others', async () => {
    const { cache } = cacheWithClock();
    const a1 = loader(sessionRow('s1', USER_A));
    const a2 = loader(sessionRow('s2', USER_A));
    const b1 = loader(sessionRow('s3', USER_B));
    for (const [hash, load] of [['h1', a1], ['h2', a2], ['h3', b1]] as const) await cache.session(hash, live, load.now);

    cache.forget({ kind: 'session', sessionId: 's1' });
    await cache.session('h1', live, a1.now);
    await cache.session('h2', live, a2.now);
    expect([a1.calls, a2.calls]).toEqual([2, 1]);

    cache.forget({ kind: 'sessions-of', userId: USER_A });
    await cache.session('h1', live, a1.now);
    await cache.session('h2', live, a2.now);
    await cache.session('h3', live, b1.now);
    expect([a1.calls, a2.calls, b1.calls]).toEqual([3, 2, 1]);
  });

  it('never stores a row read before a session change: the next request reads again', async () => {
    const { cache } = cacheWithClock();
    const load = loader(sessionRow('s1', USER_A));
    const reading = cache.session('h1', live, load.held);
    cache.forget({ kind: 'session', sessionId: 'other-session' });
    load.release();
    expect(await reading).toMatchObject({ id: 's1' });
    await cache.session('h1', live, load.now);
    expect(load.calls).toBe(2);
  });

  it('keeps its copy of last_seen_at in step with what this instance wrote', async () => {
    const { cache } = cacheWithClock();
    const load = loader(sessionRow('s1', USER_A));
    await cache.session('h1', live, load.now);
    const seen = new Date(Date.now() + 60_000);
    cache.sessionSeen('h1', seen);
    expect((await cache.session('h1', live, load.now))?.lastSeenAt).toEqual(seen);
    expect(load.calls).toBe(1);
  });
});

describe('ReadCache: card lists', () => {
  it('keeps one list per user and filter, and forgets all of a user’s lists on a change of their cards', async () => {
    const { cache } = cacheWithClock();
    const all = loader([cardRow('c1'), cardRow('c2')]);
    const frozen = loader([cardRow('c2')]);
    const bobs = loader([cardRow('c3')]);
    await cache.cards(USER_A, 'all', all.now);
    await cache.cards(USER_A, 'frozen', frozen.now);
    await cache.cards(USER_B, 'all', bobs.now);
    expect(await cache.cards(USER_A, 'all', all.now)).toHaveLength(2);
    expect([all.calls, frozen.calls, bobs.calls]).toEqual([1, 1, 1]);

    cache.forget({ kind: 'cards-of', userId: USER_A });
    await cache.cards(USER_A, 'all', all.now);
    await cache.cards(USER_A, 'frozen', frozen.now);
    await cache.cards(USER_B, 'all', bobs.now);
    expect([all.calls, frozen.calls, bobs.calls]).toEqual([2, 2, 1]);
  });

  it('never stores a list read before a change of that user’s cards', async () => {
    const { cache } = cacheWithClock();
    const load = loader([cardRow('old')]);
    const reading = cache.cards(USER_A, 'all', load.held);
    cache.forget({ kind: 'cards-of', userId: USER_A });
    load.release();
    await reading;
    await cache.cards(USER_A, 'all', load.now);
    expect(load.calls).toBe(2);
  });

  it('a change of another user’s cards does not stop a list from being stored', async () => {
    const { cache } = cacheWithClock();
    const load = loader([cardRow('c1')]);
    const reading = cache.cards(USER_A, 'all', load.held);
    cache.forget({ kind: 'cards-of', userId: USER_B });
    load.release();
    await reading;
    await cache.cards(USER_A, 'all', load.now);
    expect(load.calls).toBe(1);
  });

  it('a failed read stores nothing and the next request reads again', async () => {
    const { cache } = cacheWithClock();
    await expect(cache.cards(USER_A, 'all', () => Promise.reject(new Error('connection lost')))).rejects.toThrow('connection lost');
    const load = loader([cardRow('c1')]);
    await cache.cards(USER_A, 'all', load.now);
    await cache.cards(USER_A, 'all', load.now);
    expect(load.calls).toBe(1);
  });

  it('holds at most its maximum of entries, dropping the oldest first', async () => {
    const cache = new ReadCache({ enabled: true, maxEntries: 2 });
    const loads = [USER_A, USER_B, '00000000-0000-4000-8000-00000000000c'].map((user) => ({ user, load: loader([cardRow(user)]) }));
    for (const { user, load } of loads) await cache.cards(user, 'all', load.now);
    for (const { user, load } of loads) await cache.cards(user, 'all', load.now);
    // The first user was dropped when the third arrived (and then stored again, dropping the second).
    expect(loads.map(({ load }) => load.calls)).toEqual([2, 2, 2]);
  });
});

describe('ReadCache: off', () => {
  it('while off, every read goes to the database; turning it off forgets everything', async () => {
    const { cache } = cacheWithClock();
    const load = loader([cardRow('c1')]);
    await cache.cards(USER_A, 'all', load.now);
    cache.setEnabled(false);
    await cache.cards(USER_A, 'all', load.now);
    await cache.cards(USER_A, 'all', load.now);
    expect(load.calls).toBe(3);
    cache.setEnabled(true);
    await cache.cards(USER_A, 'all', load.now);
    expect(load.calls).toBe(4);
  });

  it('"everything" forgets every entry', async () => {
    const { cache } = cacheWithClock();
    const session = loader(sessionRow('s1', USER_A));
    const list = loader([cardRow('c1')]);
    await cache.session('h1', live, session.now);
    await cache.cards(USER_A, 'all', list.now);
    cache.forget({ kind: 'everything' });
    await cache.session('h1', live, session.now);
    await cache.cards(USER_A, 'all', list.now);
    expect([session.calls, list.calls]).toEqual([2, 2]);
  });
});

describe('change bus messages', () => {
  it('round-trips every kind of change through a NOTIFY payload', () => {
    const changes = [
      { kind: 'session', sessionId: USER_B },
      { kind: 'sessions-of', userId: USER_A },
      { kind: 'cards-of', userId: USER_B },
      { kind: 'everything' },
    ] as const;
    expect(decodeChanges(batchPayloads(changes.map(encodeChange)).join(','))).toEqual(changes);
  });

  it('reads anything it does not recognise as "everything" (forgetting too much is safe, too little is not)', () => {
    expect(decodeChanges('c:not-a-uuid,x:00000000-0000-4000-8000-00000000000a,')).toEqual([{ kind: 'everything' }, { kind: 'everything' }, { kind: 'everything' }]);
  });

  it('splits many changes into payloads PostgreSQL accepts (under 8,000 bytes), losing none', () => {
    const encoded = Array.from({ length: 1000 }, (_, i) => encodeChange({ kind: 'cards-of', userId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}` }));
    const payloads = batchPayloads(encoded);
    expect(payloads.length).toBeGreaterThan(1);
    for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThan(8000);
    expect(payloads.join(',').split(',')).toEqual(encoded);
  });
});
