import { Link } from 'react-router';
import { Icon } from '../../ui/Icon';

const QUICK_LINKS: readonly { to: string; label: string }[] = [
  { to: '/create-card', label: 'Create a Card' },
  { to: '/my-cards', label: 'My Cards' },
  { to: '/cashout', label: 'Cash Out' },
  { to: '/upgrade', label: 'Compare plans' },
  { to: '/settings', label: 'Account settings' },
  { to: '/reset-password', label: 'Reset your password' },
  { to: '/support', label: 'Support' },
  { to: '/terms', label: 'Terms of Service' },
  { to: '/privacy', label: 'Privacy Policy' },
  { to: '/compliance', label: 'Compliance Statement' },
];

export function FaqQuickLinks() {
  return (
    <aside className="faq-aside" aria-labelledby="quick-links-title">
      <div className="card card--compact">
        <h2 id="quick-links-title" className="faq-aside-title">
          Quick links
        </h2>
        <ul className="faq-quick-links">
          {QUICK_LINKS.map((link) => (
            <li key={link.to}>
              <Link to={link.to}>
                {link.label}
                <Icon name="arrowRight" size={16} />
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </aside>
  );
}
