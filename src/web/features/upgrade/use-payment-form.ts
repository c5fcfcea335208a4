import { useMemo, useState } from 'react';
import type { BillingCycle, PlanId } from '../../../core/plans';
import { SUBSCRIPTION_MESSAGES, upgradePaymentFormSchema, type UpgradeResponse } from '../../../contracts/subscription';
import { ApiError, errorMessage, newIdempotencyKey } from '../../lib/api';
import { usePublicConfig } from '../../lib/public-config';
import { useZodForm } from '../../ui/Form';
import { useToast } from '../../ui/toast';
import type { useUpgrade } from './api/plans';

export type PaymentChoice = { plan: PlanId; cycle: BillingCycle; listPriceCents: number; discountPpm: number; amountCents: number };

/** The payment form's state: its schema (demo mode, this year), one Idempotency-Key per form, and the upgrade call. */
export function usePaymentForm({ choice, upgrade, onPaid }: { choice: PaymentChoice; upgrade: ReturnType<typeof useUpgrade>; onPaid: (answer: UpgradeResponse) => void }) {
  const toast = useToast();
  const { demoMode } = usePublicConfig();
  const [now] = useState(() => new Date());
  const schema = useMemo(() => upgradePaymentFormSchema({ now, demoMode }), [now, demoMode]);
  const form = useZodForm(schema, { defaultValues: { name: '', number: '', expMonth: '', expYear: '', cvv: '', zip: '' } });
  // One key per form: a double click or a network retry of this payment cannot charge twice.
  const [idempotencyKey] = useState(newIdempotencyKey);

  const submit = (values: { name: string; number: string; expMonth: string; expYear: string; cvv: string; zip: string }) => {
    upgrade.mutate(
      {
        plan: choice.plan,
        billingCycle: choice.cycle,
        card: {
          name: values.name,
          number: values.number,
          expMonth: Number(values.expMonth),
          expYear: Number(values.expYear),
          cvv: values.cvv,
          ...(values.zip ? { zip: values.zip } : {}),
        },
        idempotencyKey,
      },
      {
        onSuccess: onPaid,
        onError: (error) => {
          toast.error(
            error instanceof ApiError && error.status >= 400 && error.status < 500
              ? error.message
              : `${SUBSCRIPTION_MESSAGES.upgradeFailed}. ${errorMessage(error, 'Please try again.')}`,
          );
        },
      },
    );
  };

  return { form, submit, now, demoMode };
}
