import { useState } from 'react';
import type { KeyboardEvent } from 'react';
import { Link, NavLink, Outlet } from 'react-router';
import { useSession } from '../../lib/session';
import { RequireAuth } from '../RequireAuth';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { BrandMark, Icon } from '../../ui/Icon';
import { LiveActivity } from '../../features/live/LiveActivity';
import { DemoBanner } from './DemoBanner';
import { useLogout } from './useLogout';
import { useScrollReset } from './useScrollReset';

// Icons only this shell uses, drawn on the Icon component's 24×24 grid.
const ICON_PATHS = {
  home: 'M3 10.5 12 3l9 7.5V20a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1Z',
  createCard: 'M3 7a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2v3H3ZM3 10v7a2 2 0 0 0 2 2h7M17 14v6M14 17h6',
  cards: 'M2 8a2 2 0 0 1 2-2h12a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2ZM2 11h16M6 3h14a2 2 0 0 1 2 2v9',
  cashout: 'M3 7h18v10H3ZM12 14.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5ZM6 10v4M18 10v4',
  history: 'M3 12a9 9 0 1 0 3-6.7L3 8M3 3v5h5M12 7v5l3 2',
  resume: 'M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20ZM10 8l6 4-6 4Z',
  settings:
    'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6ZM4.9 4.9l2.1 2.1M17 17l2.1 2.1M2 12h3M19 12h3M4.9 19.1 7 17M17 7l2.1-2.1M12 2v3M12 19v3',
  upgrade: 'M12 19V5M5 12l7-7 7 7',
  help: 'M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20ZM9.1 9a3 3 0 0 1 5.8 1c0 2-3 3-3 3M12 17h.01',
  logout: 'M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9',
  menu: 'M4 6h16M4 12h16M4 18h16',
} as const;

// docs/rules.md#screens: the side menu of the signed-in shell, in this order.
const MENU: readonly { to: string; label: string; icon: string }[] = [
  { to: '/dashboard', label: 'Dashboard', icon: ICON_PATHS.home },
  { to: '/create-card', label: 'Create Card', icon: ICON_PATHS.createCard },
  { to: '/my-cards', label: 'My Cards', icon: ICON_PATHS.cards },
  { to: '/cashout', label: 'Cash Out', icon: ICON_PATHS.cashout },
  { to: '/history', label: 'Card History', icon: ICON_PATHS.history },
  { to: '/resume-combine', label: 'Resume Combine', icon: ICON_PATHS.resume },
  { to: '/settings', label: 'Account Settings', icon: ICON_PATHS.settings },
  { to: '/upgrade', label: 'Upgrade Plan', icon: ICON_PATHS.upgrade },
  { to: '/faq', label: 'FAQ & Help', icon: ICON_PATHS.help },
];

// The same labels as PLANS[plan].label in src/core/plans.ts; repeated here so the domain core
// (and its money helpers) stay out of the first-load bundle.
const PLAN_LABELS = { free: 'Free Plan', premium: 'Premium Plan', 'premium+': 'Premium+ Plan' } as const;

/**
 * Layout route of the signed-in pages: the session check, then the frame. Loaded lazily
 * (AppShell.tsx), so visitors of the public pages never download it.
 */
export default function SignedInShell() {
  return (
    <RequireAuth>
      <AppShellFrame />
    </RequireAuth>
  );
}

/** Frame of the signed-in pages: demo banner, side menu (a disclosure on phones), the page. */
function AppShellFrame() {
  useScrollReset();
  const { profile } = useSession();
  const { logout, isPending } = useLogout();
  const [menuOpen, setMenuOpen] = useState(false);
  // On a phone the menu hides once a link is followed, and the link with it: focus would fall to
  // the document's start, so it goes to the page instead. Escape closes the menu back onto its button.
  const followed = () => {
    if (!menuOpen) return;
    setMenuOpen(false);
    document.getElementById('main')?.focus({ preventScroll: true });
  };
  const closeOnEscape = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape' || !menuOpen) return;
    setMenuOpen(false);
    document.getElementById('app-menu-button')?.focus();
  };

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <LiveActivity />
      <header className="app-topbar">
        <DemoBanner />
        <div className="app-topbar-inner">
          <Link to="/dashboard" className="brand">
            <BrandMark className="brand-mark" />
            PayWeave
          </Link>
          <Button
            id="app-menu-button"
            variant="secondary"
            size="sm"
            className="app-menu-button"
            aria-expanded={menuOpen}
            aria-controls="app-menu"
            onClick={() => setMenuOpen((open) => !open)}
            onKeyDown={closeOnEscape}
          >
            {menuOpen ? <Icon name="x" /> : <Icon d={ICON_PATHS.menu} />}
            Menu
          </Button>
        </div>
      </header>
      <div className="app-body">
        <nav id="app-menu" className="app-sidebar" aria-label="Account menu" data-open={menuOpen} onKeyDown={closeOnEscape}>
          <div className="app-sidebar-inner">
            <ul className="app-nav-list">
              {MENU.map((item) => (
                <li key={item.to}>
                  {/* Following a link on a phone closes the menu, so the page is what the user sees. */}
                  <NavLink to={item.to} end={item.to === '/dashboard'} onClick={followed}>
                    <Icon d={item.icon} />
                    {item.label}
                  </NavLink>
                </li>
              ))}
            </ul>
            {profile && (
              <div className="app-account">
                <Badge tone="brand">{PLAN_LABELS[profile.subscription]}</Badge>
                <p className="app-account-email" title={profile.email}>
                  <span className="visually-hidden">Signed in as </span>
                  {profile.email}
                </p>
                <Button variant="ghost" size="sm" onClick={logout} loading={isPending} loadingText="Logging out...">
                  <Icon d={ICON_PATHS.logout} size={18} />
                  Logout
                </Button>
              </div>
            )}
          </div>
        </nav>
        <main id="main" tabIndex={-1} className="app-main">
          <Outlet />
        </main>
      </div>
    </>
  );
}
