import { describe, expect, it } from 'vitest';
import { promoStateFor } from './dashboard-service';

describe('dashboard promo state', () => {
  const now = new Date('2026-06-01T00:00:00Z');
  it('active while the user’s 12 months run, ended after; eligible or closed for others by the counter', () => {
    expect(promoStateFor({ promo50offFirstYear: true, promoEnd: new Date('2026-12-01T00:00:00Z') }, 0, now)).toBe('active');
    expect(promoStateFor({ promo50offFirstYear: true, promoEnd: new Date('2026-05-01T00:00:00Z') }, 50, now)).toBe('ended');
    expect(promoStateFor({ promo50offFirstYear: false, promoEnd: null }, 1, now)).toBe('eligible');
    expect(promoStateFor({ promo50offFirstYear: false, promoEnd: null }, 0, now)).toBe('closed');
  });
});
