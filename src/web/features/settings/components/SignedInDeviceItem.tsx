import type { SignedInSession } from '../../../../contracts/sessions';
import { Badge } from '../../../ui/Badge';
import { Button } from '../../../ui/Button';
import { Icon } from '../../../ui/Icon';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const formatDate = (iso: string) => dateFormat.format(new Date(iso));
const formatDateTime = (iso: string) => dateTimeFormat.format(new Date(iso));

// A phone and a computer, on the icon set's 24×24 grid.
const PHONE_ICON_PATH = 'M7 2h10a2 2 0 0 1 2 2v16a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2ZM11 18h2';
const COMPUTER_ICON_PATH = 'M4 4h16a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1ZM8 20h8M12 16v4';
const isPhone = (device: string) => / on (iPhone|iPad|Android)$/.test(device);

/** One signed-in device: what and where, when, this device marked, and Sign out for the others. */
export function SignedInDeviceItem({ session, onSignOut }: { session: SignedInSession; onSignOut: () => void }) {
  return (
    <li className="security-item" aria-current={session.current ? 'true' : undefined}>
      <Icon d={isPhone(session.device) ? PHONE_ICON_PATH : COMPUTER_ICON_PATH} size={22} className="security-item-icon" />
      <div className="security-item-text">
        <p className="security-item-name">
          {session.device} {session.current && <Badge tone="success">This device</Badge>}
        </p>
        <p className="text-small text-muted" id={`device-${session.id}`}>
          {session.ipAddress ?? 'Address unknown'} · Signed in {formatDate(session.createdAt)} ·{' '}
          {session.current ? 'Active now' : `Last active ${formatDateTime(session.lastSeenAt)}`}
        </p>
      </div>
      {!session.current && (
        <div className="security-item-actions">
          <Button variant="ghost" size="sm" onClick={onSignOut} aria-label={`Sign out ${session.device}`} aria-describedby={`device-${session.id}`}>
            Sign out
          </Button>
        </div>
      )}
    </li>
  );
}
