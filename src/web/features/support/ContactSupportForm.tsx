import { useState } from 'react';
import {
  MAX_SUPPORT_MESSAGE_LENGTH,
  MAX_SUPPORT_NAME_LENGTH,
  supportMessageRequest,
  type SupportMessageRequest,
} from '../../../contracts/support';
import { api, errorMessage } from '../../lib/api';
import { usePublicConfig } from '../../lib/public-config';
import { SUPPORT_REPLY_TIME } from '../../lib/support-contact';
import { Button } from '../../ui/Button';
import { Form, useZodForm } from '../../ui/Form';
import { Notice } from '../../ui/Notice';
import { TextAreaField } from '../../ui/TextAreaField';
import { TextField } from '../../ui/TextField';
import { useToast } from '../../ui/toast';

// The support form of /support and /faq (docs/rules.md#screens, docs/rules.md#honest-figures): name, e-mail and message, all required.
// In demo mode nothing is sent, and the form says so plainly instead of pretending.

type Outcome =
  | { kind: 'demo' }
  | { kind: 'sent' }
  | { kind: 'failed'; message: string };

type ContactSupportFormProps = {
  /** Prefix of the field ids, so two forms on one page could not clash. */
  idPrefix?: string;
};

export function ContactSupportForm({ idPrefix = 'support' }: ContactSupportFormProps) {
  const { config, supportEmail } = usePublicConfig();
  const toast = useToast();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const form = useZodForm(supportMessageRequest, { defaultValues: { name: '', email: '', message: '' } });

  async function submit(request: SupportMessageRequest) {
    // Only a server that says it is live gets the message; while unsure we send nothing.
    if (config?.demoMode !== false) {
      setOutcome({ kind: 'demo' });
      toast.info('Demo mode: your message was not sent.');
      return;
    }
    try {
      await api<void>('/api/support', { method: 'POST', body: request });
      setOutcome({ kind: 'sent' });
      toast.success('Message sent. We will get back to you soon.');
      form.reset();
    } catch (error) {
      const message = errorMessage(error, 'Your message could not be sent.');
      setOutcome({ kind: 'failed', message });
      toast.error(message);
    }
  }

  return (
    <Form form={form} onSubmit={submit} aria-label="Contact support" id={`${idPrefix}-form`}>
      <div className="form-row">
        <TextField name="name" label="Name" required autoComplete="name" maxLength={MAX_SUPPORT_NAME_LENGTH} />
        <TextField name="email" label="E-mail" type="email" required autoComplete="email" inputMode="email" />
      </div>
      <TextAreaField
        name="message"
        label="Message"
        required
        rows={6}
        maxLength={MAX_SUPPORT_MESSAGE_LENGTH}
        hint="Please don’t include full card numbers, CVVs or passwords."
      />
      <div aria-live="polite" className="form-status">
        {outcome?.kind === 'demo' && (
          <Notice tone="warning" title="Nothing was sent">
            <p>
              PayWeave is in demo mode, so this form does not send messages. To reach us, e-mail{' '}
              <a href={`mailto:${supportEmail}`}>{supportEmail}</a>.
            </p>
          </Notice>
        )}
        {outcome?.kind === 'sent' && (
          <Notice tone="success" title="Message sent">
            <p>Thank you. We reply {SUPPORT_REPLY_TIME}.</p>
          </Notice>
        )}
        {outcome?.kind === 'failed' && (
          <Notice tone="error" title="Your message was not sent">
            <p>
              {outcome.message} Please try again, or e-mail <a href={`mailto:${supportEmail}`}>{supportEmail}</a>.
            </p>
          </Notice>
        )}
      </div>
      <div className="form-actions">
        <Button type="submit" loading={form.formState.isSubmitting}>
          Send message
        </Button>
      </div>
    </Form>
  );
}
