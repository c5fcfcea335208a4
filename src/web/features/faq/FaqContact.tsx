import { usePublicConfig } from '../../lib/public-config';
import { SUPPORT_HOURS, SUPPORT_REPLY_TIME } from '../../lib/support-contact';
// The contact form is shared with the support page (see docs/decisions on cross-feature imports).
import { ContactSupportForm } from '../support';

/** The page's last section (#contact, where 'Ask support' leads): the support address and the form. */
export function FaqContact() {
  const { supportEmail } = usePublicConfig();
  return (
    <section id="contact" className="faq-contact card" aria-labelledby="faq-contact-title">
      <div className="faq-contact-intro">
        <h2 id="faq-contact-title">Still need help? Contact support</h2>
        <p>
          Send us a message or e-mail <a href={`mailto:${supportEmail}`}>{supportEmail}</a>. We’re available{' '}
          {SUPPORT_HOURS} and reply {SUPPORT_REPLY_TIME}.
        </p>
      </div>
      <ContactSupportForm idPrefix="faq" />
    </section>
  );
}
