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
    });
    renderPage(<DashboardPage />, { path: '/dashboard' });
    const activity = (await screen.findByRole('heading', { name: 'Recent activity' })).closest('section') as HTMLElement;
    expect(await within(activity).findByText(/2 sources · Active · Frozen$/)).toBeTruthy();
  });

  it('an active card that is not frozen is just Active', async () => {
    fakeApi({
      'GET /api/session': { body: { signedIn: true, profile: profileFixture() } },
      'GET /api/dashboard': { body: dashboard(false) },
    });
    renderPage(<DashboardPage />, { path: '/dashboard' });
    const activity = (await screen.findByRole('heading', { name: 'Recent activity' })).closest('section') as HTMLElement;
    expect(await within(activity).findByText(/2 sources · Active$/)).toBeTruthy();
  });
});
