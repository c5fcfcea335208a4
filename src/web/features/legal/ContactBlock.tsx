import { usePublicConfig } from '../../lib/public-config';
import { SUPPORT_HOURS, SUPPORT_REPLY_TIME } from '../../lib/support-contact';

/** The contact paragraph every legal page ends with. */
export function ContactBlock() {
  const { supportEmail } = usePublicConfig();
  return (
    <div className="legal-contact">
      <p>
        E-mail: <a href={`mailto:${supportEmail}`}>{supportEmail}</a>
      </p>
      <p>Support hours: {SUPPORT_HOURS}</p>
      <p>We reply {SUPPORT_REPLY_TIME}.</p>
    </div>
  );
}
