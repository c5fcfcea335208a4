import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { DashboardData } from '../../../contracts/dashboard';
import DashboardPage from './DashboardPage';
import { fakeApi, renderPage } from '../../test/render';
import { profileFixture } from '../../test/fixtures';

const CREATED = '2026-11-20T10:00:00.000Z';

function dashboard(frozen: boolean): DashboardData {
  return {
    plan: { id: 'free', label: 'Free Plan', name: 'Free' },
    promo: { state: 'eligible', endsAt: null, daysRemaining: 0, remainingCount: 90, limitCount: 100, minTotalCents: 100_000 },
    combinesThisMonth: { completed: 1, limit: 3, remaining: 2 },
    boosts: { available: 0, used: 0, maxHeld: 3, maxLifetimeUsed: 3, combineTotal: 1 },
    recentCombines: [
      {
        id: 'combine-1',
        status: 'completed',
        totalAmountCents: 10_000,
        sourceCount: 2,
        currentStep: 7,
        promoApplied: false,
        createdAt: CREATED,
        savedAt: null,
        completedAt: CREATED,
        keptUntil: null,
        card: { id: 'card-1', status: 'active', frozen, remainingAmountCents: 9_990, originalAmountCents: 9_990, last4: '4321' },
      },
    ],
    balances: {
      totalRemainingCents: 9_990,
      cardsWithBalance: 1,
      bars: [{ cardId: 'card-1', last4: '4321', status: 'active', frozen, originalAmountCents: 9_990, amountSpentCents: 0, remainingAmountCents: 9_990 }],
    },
  };
}

describe('dashboard recent activity', () => {
  it('names a frozen card as Card History does, not as plainly active', async () => {
    fakeApi({
      'GET /api/session': { body: { signedIn: true, profile: profileFixture() } },
      'GET /api/dashboard': { body: dashboard(true) },
      'GET /api/combines': { body: { combines: [] } },
    });
    renderPage(<DashboardPage />, { path: '/dashboard' });
    const activity = (await screen.findByRole('heading', { name: 'Recent activity' })).closest('section') as HTMLElement;
    expect(await within(activity).findByText(/2 sources · Active · Frozen$/)).toBeVisible();
  });

  it('an active card that is not frozen is just Active', async () => {
    fakeApi({
      'GET /api/session': { body: { signedIn: true, profile: profileFixture() } },
      'GET /api/dashboard': { body: dashboard(false) },
      'GET /api/combines': { body: { combines: [] } },
    });
    renderPage(<DashboardPage />, { path: '/dashboard' });
    const activity = (await screen.findByRole('heading', { name: 'Recent activity' })).closest('section') as HTMLElement;
    expect(await within(activity).findByText(/2 sources · Active$/)).toBeVisible();
  });
});

describe('dashboard saved combines', () => {
  it('Save for Later says the combine can be resumed from the dashboard: the dashboard shows it and leads there', async () => {
    const api = fakeApi({
      'GET /api/session': { body: { signedIn: true, profile: profileFixture() } },
      'GET /api/dashboard': { body: dashboard(false) },
      'GET /api/combines': {
        body: {
          combines: [
            { id: 'draft-1', status: 'incomplete', totalAmountCents: 8_800, sourceCount: 1, currentStep: 3, promoApplied: false, createdAt: CREATED, savedAt: CREATED, completedAt: null, keptUntil: '2026-11-27T10:00:00.000Z', card: null },
          ],
        },
      },
    });
    renderPage(<DashboardPage />, { path: '/dashboard' });
    expect(await screen.findByText('You have a saved combine')).toBeVisible();
    expect(screen.getByText('Your combine of $88.00 is waiting where you left it.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Resume Combine' }).getAttribute('href')).toBe('/resume-combine');
    expect(api.sent.find((r) => r.path === '/api/combines')).toBeTruthy();
  });

  it('says nothing when no combine is saved', async () => {
    fakeApi({
      'GET /api/session': { body: { signedIn: true, profile: profileFixture() } },
      'GET /api/dashboard': { body: dashboard(false) },
      'GET /api/combines': { body: { combines: [] } },
    });
    renderPage(<DashboardPage />, { path: '/dashboard' });
    await screen.findByRole('heading', { name: 'Recent activity' });
    expect(screen.queryByText(/saved combine/)).toBeNull();
  });
});
