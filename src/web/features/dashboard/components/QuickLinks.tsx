import { Link } from 'react-router';
import { Card } from '../../../ui/Card';
import { Icon } from '../../../ui/Icon';
import type { IconName } from '../../../ui/Icon';

// Title case, as the spec writes 'Create a Card' and the side menu 'My Cards', 'Cash Out'.
const QUICK_LINKS: readonly { to: string; label: string; icon: IconName }[] = [
  { to: '/create-card', label: 'Create a Card', icon: 'card' },
  { to: '/my-cards', label: 'My Cards', icon: 'layers' },
  { to: '/cashout', label: 'Cash Out', icon: 'wallet' },
  { to: '/history', label: 'Card History', icon: 'clock' },
];

export function QuickLinks() {
  return (
    <Card as="section" aria-labelledby="dashboard-quick-links" className="dashboard-links">
      <h2 id="dashboard-quick-links" className="visually-hidden">
        Quick links
      </h2>
      <ul>
        {QUICK_LINKS.map((link) => (
          <li key={link.to}>
            <Link to={link.to}>
              <Icon name={link.icon} />
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </Card>
  );
}
