import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { fakeApi, renderPage } from '../test/render';
import { RequireAuth } from './RequireAuth';

describe('RequireAuth while the session loads', () => {
  it('is a page of its own: a main landmark, a heading and the spinner (axe: landmark-one-main, page-has-heading-one)', async () => {
    fakeApi({ 'GET /api/session': () => new Promise(() => {}) });
    renderPage(
      <RequireAuth>
        <p>Dashboard</p>
      </RequireAuth>,
      { path: '/dashboard' },
    );
    expect(await screen.findByRole('status')).toHaveProperty('textContent', 'Loading your account');
    expect(screen.getByRole('main').contains(screen.getByRole('status'))).toBe(true);
    expect(screen.getByRole('heading', { level: 1 })).toBeVisible();
    expect(screen.queryByText('Dashboard')).toBeNull();
  });
});
