import { describe, expect, it, vi } from 'vitest';
import { REPEATED_REFUSAL_DELAY_MS, REPEATED_REFUSAL_JITTER_MS, RefusalMemory, sendRefusal } from './repeated-refusals';

describe('repeated refusals (decision 137)', () => {
  it('a client that comes back before its Retry-After is a repeat; one that waited it out is not', () => {
    const memory = new RefusalMemory();
    const t0 = 1_000_000;
    expect(memory.refused('a', 2, t0)).toBe(false);
    expect(memory.refused('a', 2, t0 + 500)).toBe(true);
    // Told again at t0 + 500: it must now wait until t0 + 2,500.
    expect(memory.refused('a', 2, t0 + 2_400)).toBe(true);
    expect(memory.refused('a', 2, t0 + 10_000)).toBe(false);
    expect(memory.refused('b', 2, t0 + 10_000)).toBe(false);
  });

  it('a repeated refusal is sent after the delay, a first one at once', () => {
    vi.useFakeTimers();
    try {
      const sent: string[] = [];
      sendRefusal(false, () => sent.push('first'));
      sendRefusal(true, () => sent.push('repeat'), () => 0);
      expect(sent).toEqual(['first']);
      vi.advanceTimersByTime(REPEATED_REFUSAL_DELAY_MS - 1);
      expect(sent).toEqual(['first']);
      vi.advanceTimersByTime(1);
      expect(sent).toEqual(['first', 'repeat']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('clients refused together are held for different times within the jitter, so they do not come back as one burst', () => {
    vi.useFakeTimers();
    try {
      const sentAt: number[] = [];
      const start = Date.now();
      // What Math.random would give 16 flooding connections refused in the same millisecond.
      const draws = Array.from({ length: 16 }, (_, i) => i / 16);
      for (const draw of draws) sendRefusal(true, () => sentAt.push(Date.now() - start), () => draw);
      vi.advanceTimersByTime(REPEATED_REFUSAL_DELAY_MS + REPEATED_REFUSAL_JITTER_MS);
      expect(sentAt).toHaveLength(16);
      expect(Math.min(...sentAt)).toBe(REPEATED_REFUSAL_DELAY_MS);
      expect(Math.max(...sentAt)).toBeLessThan(REPEATED_REFUSAL_DELAY_MS + REPEATED_REFUSAL_JITTER_MS);
      expect(new Set(sentAt).size).toBe(16);
    } finally {
      vi.useRealTimers();
    }
  });
});
