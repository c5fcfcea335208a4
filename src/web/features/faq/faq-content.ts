// The FAQ's questions and answers, in page order. Each category lives in a module by subject
// (faq-basics, faq-combines, faq-fees, faq-cards); every figure in them (limits, fees, validity,
// payout methods, prices) is read from the domain core, so the FAQ cannot drift from the rules the
// server enforces.

import { gettingStarted, securityAndPrivacy } from './faq-basics';
import { cashOutAndPayouts, virtualCards } from './faq-cards';
import { combiningSources } from './faq-combines';
import { fees, plansAndBilling } from './faq-fees';
import type { FaqCategory } from './faq-types';

export function buildFaq(options: { payAddress: string }): readonly FaqCategory[] {
  return [
    gettingStarted,
    combiningSources(options),
    fees,
    plansAndBilling,
    virtualCards,
    cashOutAndPayouts,
    securityAndPrivacy,
  ];
}
