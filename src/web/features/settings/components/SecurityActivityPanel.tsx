import { SECURITY_EVENT_LABELS, type SecurityEvent } from '../../../../contracts/security-activity';
import { errorMessage } from '../../../lib/api';
import { Button } from '../../../ui/Button';
import { Notice } from '../../../ui/Notice';
import { Spinner } from '../../../ui/Spinner';
import { useSecurityActivity } from '../api/security-activity';
import '../security-panel.css';

// Settings → Security → Recent security activity (decision 166): the account's newest security
// events, so a sign-in or a change the user did not make is seen, with what to do about it.

const dateTimeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

function EventItem({ event }: { event: SecurityEvent }) {
  return (
    <li className="security-item">
      <div className="security-item-text">
        <p className="security-item-name">{SECURITY_EVENT_LABELS[event.kind]}</p>
        <p className="text-small text-muted">
          <time dateTime={event.at}>{dateTimeFormat.format(new Date(event.at))}</time> · {event.ipAddress ?? 'Address unknown'}
        </p>
      </div>
    </li>
  );
}

export function SecurityActivityPanel() {
  const activity = useSecurityActivity();
  return (
    <section className="security-panel" aria-labelledby="security-activity-heading">
      <h3 id="security-activity-heading">Recent security activity</h3>
      <p className="text-muted">
        Sign-ins and changes to how you sign in, newest first. If you see something you did not do, change your password and sign out your other devices.
      </p>
      {activity.isPending && <Spinner label="Loading your recent security activity" showLabel size="sm" />}
      {activity.isError && (
        <Notice tone="error" role="alert">
          {errorMessage(activity.error, 'Could not load your recent security activity.')}{' '}
          <Button variant="ghost" size="sm" onClick={() => void activity.refetch()}>
            Try again
          </Button>
        </Notice>
      )}
      {activity.isSuccess && (
        <ul className="security-list" aria-label="Your recent security activity">
          {activity.data.map((event, index) => (
            // Two events of one kind can share a second: the position keeps their keys apart.
            <EventItem key={`${event.at}-${event.kind}-${index}`} event={event} />
          ))}
        </ul>
      )}
    </section>
  );
}
