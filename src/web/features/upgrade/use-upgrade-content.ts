import { useState } from 'react';
import type { BillingCycle } from '../../../core/plans';
import type { PlanView, PlansResponse, UpgradeResponse } from '../../../contracts/subscription';
import { useToast } from '../../ui/toast';
import type { PaymentChoice } from './PaymentModal';

/** The upgrade page's state: the billing cycle, the plan being paid for, and the paid upgrade. */
export function useUpgradeContent(data: PlansResponse) {
  const toast = useToast();
  const [cycle, setCycle] = useState<BillingCycle>(data.subscription.billingCycle ?? 'monthly');
  const [choice, setChoice] = useState<PaymentChoice | null>(null);
  const [success, setSuccess] = useState<UpgradeResponse | null>(null);

  const choose = (plan: PlanView) => {
    const listPriceCents = cycle === 'monthly' ? plan.priceMonthlyCents : plan.priceYearlyCents;
    setChoice({ plan: plan.id, cycle, listPriceCents, discountPpm: data.loyalty.nextDiscountPpm, amountCents: plan.firstPaymentCents[cycle] });
  };
  const onPaid = (answer: UpgradeResponse) => {
    setChoice(null);
    setSuccess(answer);
    toast.success(answer.message);
  };

  return { cycle, setCycle, choice, closePayment: () => setChoice(null), onPaid, success, closeSuccess: () => setSuccess(null), choose };
}
