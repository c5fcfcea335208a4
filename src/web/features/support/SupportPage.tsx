import { Link } from 'react-router';
import { usePublicConfig } from '../../lib/public-config';
import { SUPPORT_HOURS, SUPPORT_REPLY_TIME } from '../../lib/support-contact';
import { Card } from '../../ui/Card';
import { Icon } from '../../ui/Icon';
import { Notice } from '../../ui/Notice';
import { PageHeader } from '../../ui/PageHeader';
import { ContactSupportForm } from './ContactSupportForm';
import './support.css';

export default function SupportPage() {
  const { supportEmail, demoMode } = usePublicConfig();
  return (
    <div className="page">
      <PageHeader
        title="Support"
        description={`We’re here to help with your account, cards and payouts. We reply ${SUPPORT_REPLY_TIME}.`}
      />
      <div className="support-layout">
        <section aria-labelledby="support-contact-title" className="support-contact">
          <h2 id="support-contact-title" className="visually-hidden">
            Ways to reach us
          </h2>
          <ul className="support-facts">
            <li className="card card--compact support-fact">
              <span className="support-fact-icon">
                <Icon name="mail" />
              </span>
              <div>
                <h3>E-mail</h3>
                <p>
                  <a href={`mailto:${supportEmail}`}>{supportEmail}</a>
                </p>
              </div>
            </li>
            <li className="card card--compact support-fact">
              <span className="support-fact-icon">
                <Icon name="clock" />
              </span>
              <div>
                <h3>Support hours</h3>
                <p>{SUPPORT_HOURS}</p>
              </div>
            </li>
            <li className="card card--compact support-fact">
              <span className="support-fact-icon">
                <Icon name="checkCircle" />
              </span>
              <div>
                <h3>Response time</h3>
                <p>We reply {SUPPORT_REPLY_TIME}.</p>
              </div>
            </li>
          </ul>
          <Card tone="muted" compact>
            <h3>Looking for a quick answer?</h3>
            <p>
              Limits, fees, card validity and payouts are covered in the <Link to="/faq">FAQ</Link>. Our{' '}
              <Link to="/terms">Terms of Service</Link>, <Link to="/privacy">Privacy Policy</Link> and{' '}
              <Link to="/compliance">Compliance Statement</Link> explain the rules.
            </p>
          </Card>
          <Card tone="muted" compact>
            <h3>Keep your account safe</h3>
            <p>
              PayWeave will never ask for your password, your bank logins or a full card number by e-mail or phone.
            </p>
          </Card>
        </section>
        <section aria-labelledby="support-form-title" className="card support-form-card">
          <h2 id="support-form-title">Send us a message</h2>
          <p className="text-muted">All fields are required.</p>
          {demoMode && (
            <Notice tone="info" className="support-demo-note">
              <p>
                Demo mode: this form shows how support works but does not send anything. Please e-mail us instead.
              </p>
            </Notice>
          )}
          <ContactSupportForm idPrefix="support-page" />
        </section>
      </div>
    </div>
  );
}
