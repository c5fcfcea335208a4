import { z } from 'zod';
import { useSingleFlight } from '../../../lib/use-single-flight';
import { checkBnplCardEntry } from '../../../../core/cards';
import { formatUsd } from '../../../../core/money';
import type { CombineSource } from '../../../../contracts/combines';
import { Button } from '../../../ui/Button';
import { Icon } from '../../../ui/Icon';
import { Form, useZodForm } from '../../../ui/Form';
import { Notice } from '../../../ui/Notice';
import { useToast } from '../../../ui/toast';
import { brandLabel, providerLabel } from '../labels';
import type { Wizard } from '../use-wizard';
import { CardDetailsFields } from './CardDetailsFields';
import { WizardActions } from './WizardActions';

export { formatExpiryInput } from './CardDetailsFields';

type BnplCard = { cardNumber: string; expiry: string; cvv: string };
const EMPTY_CARD: BnplCard = { cardNumber: '', expiry: '', cvv: '' };

// docs/rules.md#bnpl-steps: the first problem, on its field; the output is what the API takes
// (spaces removed from the number before it leaves the browser, docs/rules.md#messages).
const bnplCardForm = z.object({ cardNumber: z.string(), expiry: z.string(), cvv: z.string() }).transform((entry, ctx): BnplCard => {
  const checked = checkBnplCardEntry(entry, new Date());
  if (checked.ok) return { cardNumber: checked.number, expiry: entry.expiry.trim(), cvv: checked.cvv };
  ctx.addIssue({ code: 'custom', path: [checked.field], message: checked.message });
  return z.NEVER;
});

/** Step 4 with BNPL: the one-time card from the provider (docs/rules.md#wizard-steps, docs/rules.md#bnpl-steps), one per BNPL source. */
export function BnplCheckoutStep({ wizard }: { wizard: Wizard }) {
  const { combine, actions, pending } = wizard;
  const bnplSources = combine?.sources.filter((s) => s.type === 'bnpl') ?? [];
  const next = bnplSources.find((s) => !s.bnplCardLast4) ?? null;
  const done = bnplSources.filter((s) => s.bnplCardLast4);

  return (
    <div className="wizard-step-body">
      <p className="wizard-lead">
        Enter the one-time card your BNPL provider created. We pre-authorize it now and charge it only when you create your
        virtual card.
      </p>
      {done.map((source) => (
        <Notice key={source.id} tone="success">
          {providerLabel(source.provider)} one-time card {brandLabel(source.bnplCardBrand) ?? ''} •••• {source.bnplCardLast4} added.
        </Notice>
      ))}
      {next && <BnplCardForm key={next.id} source={next} onSubmit={actions.submitBnplCard} submitting={pending.bnplCard} />}
      <WizardActions onBack={actions.back}>
        <Button variant="secondary" onClick={() => void actions.saveForLater()} loading={pending.save}>
          Save for Later
        </Button>
        <Button type="submit" form="bnpl-card-form" loading={pending.bnplCard} disabled={!next || pending.save}>
          Continue to review
          <Icon name="arrowRight" size={18} />
        </Button>
      </WizardActions>
    </div>
  );
}

type FormProps = {
  source: CombineSource;
  submitting: boolean;
  onSubmit: (sourceId: string, card: BnplCard) => Promise<boolean>;
};

function BnplCardForm({ source, submitting, onSubmit }: FormProps) {
  const toast = useToast();
  // As the source form: errors come with the submit's toast and stay until their field is edited.
  const form = useZodForm(bnplCardForm, { defaultValues: EMPTY_CARD, mode: 'onSubmit', reValidateMode: 'onSubmit', shouldFocusError: false });
  const provider = providerLabel(source.provider);
  const oneTime = source.oneTimeCardChargeCents ?? source.chargeCents + source.bnplFeeMaxCents;

  // One submit at a time: each pre-authorises the one-time card, and a fast double click lands
  // before `submitting` re-renders the button as busy.
  const submitOnce = useSingleFlight(async (card: BnplCard) => {
    const ok = await onSubmit(source.id, card);
    if (ok) form.reset(EMPTY_CARD);
    else form.setValue('cvv', '');
  });

  return (
    <Form
      form={form}
      id="bnpl-card-form"
      className="card bnpl-card-form"
      onSubmit={(card) => (submitting ? undefined : submitOnce(card))}
      onInvalid={(errors) => {
        if (submitting) return form.clearErrors();
        const message = Object.values(errors).find((error) => typeof error?.message === 'string')?.message;
        if (message) toast.error(message);
      }}
      aria-labelledby="bnpl-card-heading"
    >
      <h3 id="bnpl-card-heading" className="wizard-subheading">
        {provider} one-time card for {formatUsd(oneTime)}
      </h3>
      <CardDetailsFields expiry="mm-yy" />
      <p className="text-small text-muted source-form-secure">
        <Icon name="lock" size={16} />
        We keep only the last 4 digits of this card.
      </p>
    </Form>
  );
}
