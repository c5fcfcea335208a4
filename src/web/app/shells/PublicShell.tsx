import { useEffect } from 'react';
import { Link, NavLink, Outlet } from 'react-router';
import { useSession } from '../../lib/session';
import { Button, ButtonLink } from '../../ui/Button';
import { BrandMark } from '../../ui/Icon';
import { preloadAppShell } from './AppShell';
import { DemoBanner } from './DemoBanner';
import { useLogout } from './useLogout';
import { useScrollReset } from './useScrollReset';

/** Frame of the public pages (docs/rules.md#screens): demo banner, header, the page, footer. */
export function PublicShell() {
  useScrollReset();
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <header className="site-header">
        <DemoBanner />
        <div className="container site-header-inner">
          <Link to="/" className="brand">
            <BrandMark className="brand-mark" />
            PayWeave
          </Link>
          <nav className="site-nav" aria-label="Main">
            <ul>
              <li>
                <NavLink to="/faq">FAQ</NavLink>
              </li>
              <li>
                <NavLink to="/support">Support</NavLink>
              </li>
            </ul>
          </nav>
          <HeaderActions />
        </div>
      </header>
      <main id="main" tabIndex={-1} className="site-main">
        <Outlet />
      </main>
      <SiteFooter />
    </>
  );
}

function HeaderActions() {
  const { profile, isLoading } = useSession();
  const { logout, isPending } = useLogout();
  // A signed-in visitor is one click from the dashboard: fetch its shell ahead of time.
  useEffect(() => {
    if (profile) preloadAppShell();
  }, [profile]);
  // Nothing until the session is known, so a signed-in user never sees 'Login' flash by.
  if (isLoading) return <div className="site-actions" />;
  if (profile) {
    return (
      <div className="site-actions">
        <ButtonLink to="/dashboard" variant="ghost" size="sm">
          Dashboard
        </ButtonLink>
        <Button variant="secondary" size="sm" onClick={logout} loading={isPending} loadingText="Logging out...">
          Logout
        </Button>
      </div>
    );
  }
  return (
    <div className="site-actions">
      <ButtonLink to="/login" variant="ghost" size="sm">
        Login
      </ButtonLink>
      <ButtonLink to="/register" variant="primary" size="sm">
        {/* docs/rules.md#screens: 'Get Started', shortened to 'Register' on phones. */}
        <span className="label-wide">Get Started</span>
        <span className="label-narrow">Register</span>
      </ButtonLink>
    </div>
  );
}

function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="container">
        <div className="site-footer-grid">
          <div className="site-footer-about">
            <Link to="/" className="brand">
              <BrandMark className="brand-mark" />
              PayWeave
            </Link>
            <p>
              Combine credit, debit, prepaid and buy-now-pay-later sources into one virtual card. PayWeave is not a
              bank and offers no loans.
            </p>
          </div>
          <nav aria-labelledby="footer-links">
            <h2 id="footer-links">Links</h2>
            <ul>
              <li>
                <Link to="/faq">FAQ</Link>
              </li>
              <li>
                <Link to="/support">Support</Link>
              </li>
              <li>
                <Link to="/register">Create account</Link>
              </li>
            </ul>
          </nav>
          <nav aria-labelledby="footer-legal">
            <h2 id="footer-legal">Legal</h2>
            <ul>
              <li>
                <Link to="/terms">Terms of Service</Link>
              </li>
              <li>
                <Link to="/privacy">Privacy Policy</Link>
              </li>
              <li>
                <Link to="/compliance">Compliance</Link>
              </li>
            </ul>
          </nav>
        </div>
        <div className="site-footer-bottom">
          <p>© 2026 PayWeave. All rights reserved.</p>
          <p>Virtual cards are issued by compliant partners. Card processing by our card payment provider.</p>
        </div>
      </div>
    </footer>
  );
}
