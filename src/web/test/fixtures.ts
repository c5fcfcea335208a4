// Answers the fake API gives in component tests, shaped like the contracts (src/contracts).
import type { Profile } from '../../contracts/me';
import type { Card } from '../../contracts/cards';

export function profileFixture(overrides: Partial<Profile> = {}): Profile {
  return {
    id: '6b0b4a4e-0000-4000-8000-000000000001',
    email: 'ada@example.com',
    createdAt: '2026-11-01T10:00:00.000Z',
    lastReset: null,
    subscription: 'free',
    billingCycle: null,
    subscriptionPriceCents: 0,
    subscriptionUpdated: null,
    currentSubscriptionStart: null,
    subscriptionPeriodEnd: null,
    cancelAtPeriodEnd: false,
    subscriptionLastCanceledAt: null,
    loyaltyDiscountMonths: 0,
    boostsUsed: 0,
    boostsAvailable: 0,
    combineTotal: 0,
    promo50offFirstYear: false,
    promoStart: null,
    promoEnd: null,
    promoActive: false,
    preferredPayout: null,
    payoutMethods: [],
    twoFactorEnabled: false,
    lastUpdated: '2026-11-01T10:00:00.000Z',
    simulated: true,
    testSource: 'MVP-Demo',
    environment: 'test',
    ...overrides,
  };
}

export function cardFixture(overrides: Partial<Card> = {}): Card {
  return {
    id: '6b0b4a4e-0000-4000-8000-0000000000c1',
    combineId: null,
    type: 'general',
    status: 'active',
    frozen: false,
    network: 'visa',
    last4: '4321',
    maskedNumber: '•••• •••• •••• 4321',
    issuedAt: '2026-11-01T10:00:00.000Z',
    validUntil: '2027-11-01T10:00:00.000Z',
    closedAt: null,
    originalAmountCents: 50_000,
    amountSpentCents: 0,
    remainingAmountCents: 50_000,
    promoApplied: false,
    promoId: null,
    can: { spend: true, cashOut: true, useAsSource: true, freeze: true },
    simulated: true,
    testSource: 'MVP-Demo',
    environment: 'test',
    ...overrides,
  };
}
