import { Fragment } from 'react';
import { Link } from 'react-router';
import type { MailboxMessage } from '../../../contracts/auth';
import { ApiError, errorMessage } from '../../lib/api';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorState } from '../../ui/ErrorState';
import { Icon } from '../../ui/Icon';
import { PageHeader } from '../../ui/PageHeader';
import { Spinner } from '../../ui/Spinner';
import { useMailbox } from './api/mailbox';
import './mailbox.css';

const DATE_TIME = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const URL_PATTERN = /(https?:\/\/[^\s<>"]+)/g;

/**
 * A link of an e-mail. Links to PayWeave's own pages open inside the app whatever host APP_URL
 * names, so the demo works on any address; other links open as ordinary links.
 */
function MailLink({ href }: { href: string }) {
  let url: URL | null = null;
  try {
    url = new URL(href);
  } catch {
    return <>{href}</>;
  }
  if (url.pathname.startsWith('/reset-password')) {
    return <Link to={`${url.pathname}${url.search}`}>{href}</Link>;
  }
  return (
    <a href={href} rel="noopener noreferrer">
      {href}
    </a>
  );
}

function MailText({ text }: { text: string }) {
  const parts = text.split(URL_PATTERN);
  return (
    <p className="mailbox-text">
      {parts.map((part, index) => (
        <Fragment key={index}>{index % 2 === 1 ? <MailLink href={part} /> : part}</Fragment>
      ))}
    </p>
  );
}

function MessageCard({ message }: { message: MailboxMessage }) {
  return (
    <Card as="article" className="mailbox-message" aria-labelledby={`mail-${message.id}`}>
      <h2 id={`mail-${message.id}`} className="mailbox-subject">
        {message.subject}
      </h2>
      <dl className="mailbox-meta">
        <div>
          <dt>To</dt>
          <dd>{message.to}</dd>
        </div>
        <div>
          <dt>Received</dt>
          <dd>
            <time dateTime={message.createdAt}>{DATE_TIME.format(new Date(message.createdAt))}</time>
          </dd>
        </div>
      </dl>
      <MailText text={message.text} />
    </Card>
  );
}

/** /dev/mailbox (demo mode only): the e-mails PayWeave would have sent, newest first. */
export default function MailboxPage() {
  const mailbox = useMailbox();
  const notInDemo = mailbox.error instanceof ApiError && mailbox.error.status === 404;

  return (
    <section className="page page--narrow">
      <PageHeader
        title="Demo mailbox"
        description="Demo mode sends no real e-mail. Messages PayWeave would have sent appear here, newest first."
        actions={
          !notInDemo && (
            <Button variant="secondary" onClick={() => void mailbox.refetch()} loading={mailbox.isFetching} loadingText="Refreshing...">
              <Icon name="refresh" size={18} />
              Refresh
            </Button>
          )
        }
      />
      {mailbox.isPending ? (
        <div className="page-center">
          <Spinner label="Loading the mailbox" showLabel />
        </div>
      ) : notInDemo ? (
        <EmptyState icon="mail" title="The demo mailbox is off">
          PayWeave is not running in demo mode, so e-mails are delivered to real inboxes.
        </EmptyState>
      ) : mailbox.error ? (
        <ErrorState title="Failed to load the mailbox" message={errorMessage(mailbox.error, 'Failed to load the mailbox')} onRetry={() => void mailbox.refetch()} retrying={mailbox.isFetching} />
      ) : mailbox.data.messages.length === 0 ? (
        <EmptyState icon="inbox" title="No e-mails yet">
          Ask for a <Link to="/reset-password">password reset</Link> and the e-mail appears here.
        </EmptyState>
      ) : (
        <div className="mailbox-list">
          {mailbox.data.messages.map((message) => (
            <MessageCard key={message.id} message={message} />
          ))}
        </div>
      )}
    </section>
  );
}
