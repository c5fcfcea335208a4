import { describe, expect, it } from 'vitest';
import { safeNextPath } from './auth';

describe('safeNextPath: sign-in only ever returns to a page of this site', () => {
  it.each([
    ['/settings', '/settings'],
    ['/history/abc?x=1#top', '/history/abc?x=1#top'],
    [null, '/dashboard'],
    ['', '/dashboard'],
    ['dashboard', '/dashboard'],
    ['//evil.example/x', '/dashboard'],
    ['/\\evil.example', '/dashboard'],
    ['https://evil.example/', '/dashboard'],
    ['javascript:alert(1)', '/dashboard'],
    ['/login?next=/x', '/dashboard'],
    ['/reset-password/confirm?token=x', '/dashboard'],
  ])('%s → %s', (next, expected) => {
    expect(safeNextPath(next)).toBe(expected);
  });
});
