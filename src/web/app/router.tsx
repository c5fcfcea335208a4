import { createBrowserRouter } from 'react-router';
import { PublicShell } from './shells/PublicShell';
import { loadAppShell } from './shells/AppShell';
import { RouteError } from './RouteError';
import { RouteLoading } from './RouteLoading';
import { UnknownRoute } from './UnknownRoute';

// Every page is its own chunk (spec: routes load lazily); `lazy` keeps the landing bundle small.
const page = (load: () => Promise<{ default: React.ComponentType }>) => async () => {
  const module = await load();
  return { Component: module.default };
};

export const router = createBrowserRouter([
  {
    // A pathless root that holds only the first-load fallback: every page is lazy, so nothing can
    // render until the first page's chunk arrives. With no element it just renders its children.
    hydrateFallbackElement: <RouteLoading />,
    children: [
      {
        element: <PublicShell />,
        errorElement: <RouteError />,
        children: [
          { path: '/', lazy: page(() => import('../features/landing/LandingPage')) },
          { path: '/login', lazy: page(() => import('../features/auth/LoginPage')) },
          { path: '/register', lazy: page(() => import('../features/auth/RegisterPage')) },
          { path: '/reset-password', lazy: page(() => import('../features/auth/ResetPasswordPage')) },
          { path: '/reset-password/confirm', lazy: page(() => import('../features/auth/ResetPasswordConfirmPage')) },
          { path: '/unlock-two-factor', lazy: page(() => import('../features/auth/UnlockTwoFactorPage')) },
          { path: '/terms', lazy: page(() => import('../features/legal/TermsPage')) },
          { path: '/privacy', lazy: page(() => import('../features/legal/PrivacyPage')) },
          { path: '/compliance', lazy: page(() => import('../features/legal/CompliancePage')) },
          { path: '/support', lazy: page(() => import('../features/support/SupportPage')) },
          { path: '/faq', lazy: page(() => import('../features/faq/FaqPage')) },
          { path: '/dev/mailbox', lazy: page(() => import('../features/dev/MailboxPage')) },
        ],
      },
      {
        // The session check and the signed-in frame: one lazy chunk, loaded with the page's own.
        lazy: page(loadAppShell),
        errorElement: <RouteError />,
        children: [
          { path: '/dashboard', lazy: page(() => import('../features/dashboard/DashboardPage')) },
          { path: '/create-card', lazy: page(() => import('../features/wizard/CreateCardPage')) },
          { path: '/my-cards', lazy: page(() => import('../features/cards/MyCardsPage')) },
          { path: '/history', lazy: page(() => import('../features/history/HistoryPage')) },
          { path: '/history/:id', lazy: page(() => import('../features/history/HistoryDetailPage')) },
          { path: '/cashout', lazy: page(() => import('../features/cashout/CashoutPage')) },
          { path: '/resume-combine', lazy: page(() => import('../features/drafts/ResumeCombinePage')) },
          { path: '/settings', lazy: page(() => import('../features/settings/SettingsPage')) },
          { path: '/upgrade', lazy: page(() => import('../features/upgrade/UpgradePage')) },
        ],
      },
      // Spec: any other path redirects to the landing page; the toast says why.
      { path: '*', element: <UnknownRoute /> },
    ],
  },
]);
