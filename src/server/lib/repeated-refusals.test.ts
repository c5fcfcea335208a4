import { describe, expect, it, vi } from 'vitest';
import { REPEATED_REFUSAL_DELAY_MS, RefusalMemory, sendRefusal } from './repeated-refusals';

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
      sendRefusal(true, () => sent.push('repeat'));
      expect(sent).toEqual(['first']);
      vi.advanceTimersByTime(REPEATED_REFUSAL_DELAY_MS - 1);
      expect(sent).toEqual(['first']);
      vi.advanceTimersByTime(1);
      expect(sent).toEqual(['first', 'repeat']);
    } finally {
      vi.useRealTimers();
    }
  });
});
