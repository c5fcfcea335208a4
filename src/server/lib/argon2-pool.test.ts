import { afterAll, describe, expect, it, vi } from 'vitest';
import { Argon2Pool, argon2PriorityFromEnv } from './argon2-pool';
import { PASSWORD_HASH_OPTIONS } from './passwords';

// Cheap parameters: these tests are about the queue, not the hash.
const CHEAP = { ...PASSWORD_HASH_OPTIONS, memoryCost: 1024, timeCost: 1 };

describe('argon2id pool: bounded, and fair between clients', () => {
  const pool = new Argon2Pool({ threads: 1, queueLimit: 2, priority: 'low' });
  afterAll(() => pool.close());

  it('hashes and verifies in a worker thread, lowered to nice 19 where the system allows it', async () => {
    const stored = await pool.hash('Correct-Horse-9', CHEAP, 'a');
    expect(stored).toMatch(/^\$argon2id\$/);
    expect(await pool.verify(stored, 'Correct-Horse-9', 'a')).toBe(true);
    expect(await pool.verify(stored, 'Wrong-Horse-9', 'a')).toBe(false);
    if (process.platform === 'linux') expect(pool.stats().nicedThreads).toBe(1);
  });

  it('past its queue it refuses at once with 503 service_unavailable and a Retry-After', async () => {
    const jobs = Array.from({ length: 6 }, () => pool.hash('x', CHEAP, 'flood').then(() => 'done', (error: unknown) => error));
    const outcomes = await Promise.all(jobs);
    // One hashing, two waiting; the rest refused.
    expect(outcomes.filter((o) => o === 'done')).toHaveLength(3);
    for (const refused of outcomes.filter((o) => o !== 'done')) {
      expect(refused).toMatchObject({ statusCode: 503, code: 'service_unavailable' });
      expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(0);
    }
  });

  it('a light client is neither refused nor kept waiting behind a heavy one: the heavy one’s newest job goes', async () => {
    const order: string[] = [];
    const heavy = Array.from({ length: 3 }, (_, i) => pool.hash('x', CHEAP, 'heavy').then(() => order.push(`heavy-${i}`), () => order.push(`heavy-${i}-refused`)));
    const light = pool.hash('x', CHEAP, 'light').then(() => order.push('light'), () => order.push('light-refused'));
    await Promise.all([...heavy, light]);
    expect(order).not.toContain('light-refused');
    expect(order).toContain('heavy-2-refused');
    // The light client's job ran before the heavy client's waiting one.
    expect(order.indexOf('light')).toBeLessThan(order.indexOf('heavy-1'));
  });

  it('the heavy client’s newest waiting job goes even when the clock ticks while the queue is weighed', async () => {
    // Every reading of the clock a millisecond later than the one before: the same client's jobs
    // must still weigh the same within one decision.
    let clock = Date.now();
    const now = vi.spyOn(Date, 'now').mockImplementation(() => (clock += 1));
    try {
      const order: string[] = [];
      const heavy = Array.from({ length: 3 }, (_, i) => pool.hash('x', CHEAP, 'ticking').then(() => order.push(`heavy-${i}`), () => order.push(`heavy-${i}-refused`)));
      const light = pool.hash('x', CHEAP, 'unhurried').then(() => order.push('light'), () => order.push('light-refused'));
      await Promise.all([...heavy, light]);
      expect(order).toContain('heavy-2-refused');
      expect(order).not.toContain('heavy-1-refused');
    } finally {
      now.mockRestore();
    }
  });

  it('says in advance whether a job would be refused: only when full, and only to the heaviest client', async () => {
    expect(pool.refusesNow('early')).toBe(false); // a thread is free
    const jobs = Array.from({ length: 3 }, () => pool.hash('x', CHEAP, 'early').catch(() => 'refused'));
    // One hashing, two waiting: the queue is full, and 'early' is the only client in it.
    expect(pool.refusesNow('early')).toBe(true);
    // A client that has used the pool less than 'early' would push out one of its jobs instead.
    expect(pool.refusesNow('newcomer')).toBe(false);
    const refusedBefore = pool.stats().refused;
    expect(pool.refusesNow('early')).toBe(true);
    expect(pool.stats().refused).toBe(refusedBefore + 1);
    expect(await Promise.all(jobs)).not.toContain('refused');
    expect(pool.refusesNow('early')).toBe(false);
  });

  it('a waiting job whose client has gone is dropped unhashed, and its place in a full queue goes to a newcomer', async () => {
    const before = pool.stats();
    let gone = false;
    const outcome = (job: Promise<unknown>) => job.then(() => 'done', (error: unknown) => error);
    const running = outcome(pool.hash('x', CHEAP, 'a'));
    const left = outcome(pool.hash('x', CHEAP, 'b', () => gone));
    const waiting = outcome(pool.hash('x', CHEAP, 'c', () => false));
    gone = true;
    // The queue (2) is full of b and c: the newcomer takes the place of b, whose client left.
    const newcomer = outcome(pool.hash('x', CHEAP, 'd'));
    expect(await left).toMatchObject({ statusCode: 503, code: 'service_unavailable' });
    expect([await running, await waiting, await newcomer]).toEqual(['done', 'done', 'done']);
    const after = pool.stats();
    expect(after.abandoned - before.abandoned).toBe(1);
    expect(after.refused - before.refused).toBe(0);
    expect(after.started - before.started).toBe(3);
  });

  it('a job whose client goes while it waits for a thread is dropped when the thread frees up', async () => {
    const before = pool.stats();
    let gone = false;
    const running = pool.hash('x', CHEAP, 'a');
    const left = pool.hash('x', CHEAP, 'b', () => gone).then(() => 'done', (error: unknown) => error);
    gone = true;
    await running;
    expect(await left).toMatchObject({ statusCode: 503 });
    expect(pool.stats().started - before.started).toBe(1);
  });
});

describe('argon2id pool: the hashing priority is the operator’s setting (decision 184)', () => {
  it('ARGON2_PRIORITY defaults to idle, takes idle, low or normal, and names a wrong value', () => {
    expect(argon2PriorityFromEnv(undefined)).toBe('idle');
    expect(argon2PriorityFromEnv('')).toBe('idle');
    expect(argon2PriorityFromEnv('low')).toBe('low');
    expect(argon2PriorityFromEnv('normal')).toBe('normal');
    expect(() => argon2PriorityFromEnv('realtime')).toThrow('ARGON2_PRIORITY must be one of idle, low, normal (got "realtime")');
  });

  it('at normal priority the workers are left as they are', async () => {
    const pool = new Argon2Pool({ threads: 1, queueLimit: 1, priority: 'normal' });
    try {
      expect(await pool.verify(await pool.hash('Correct-Horse-9', CHEAP, 'a'), 'Correct-Horse-9', 'a')).toBe(true);
      expect(pool.stats().nicedThreads).toBe(0);
    } finally {
      await pool.close();
    }
  });
});
