import { RECOMMENDED_TAX_BUFFER_PERCENT } from '../../../core/amount';
import {
  BNPL_FEE_MAX_PPM,
  BNPL_PROVIDERS,
  PROVIDER_LABELS,
  PROVIDERS_BY_SOURCE_TYPE,
  SOURCE_TYPE_LABELS,
  SOURCE_TYPES,
} from '../../../core/fees';
import type { BnplProviderId } from '../../../core/fees';
import { formatUsd, MAX_CARD_AMOUNT_CENTS } from '../../../core/money';
import type { FaqCategory } from './faq-types';
import { bnplAllowance, combineLimit, listing, perPlan } from './faq-wording';

const bnplIds = Object.keys(BNPL_PROVIDERS) as BnplProviderId[];
const bnplNames = listing(bnplIds.map((id) => BNPL_PROVIDERS[id].label));
// 100% of the amount plus the allowance; written out because formatPpmAsPercent stops at 100%.
const oneTimeCardPercent = `${100 + BNPL_FEE_MAX_PPM / 10_000}%`;

/** Sources, the steps of a combine, limits and BNPL; the BNPL answer names the server's pay address. */
export function combiningSources(options: { payAddress: string }): FaqCategory {
  return {
    id: 'combines',
    title: 'Combining sources',
    items: [
      {
        id: 'sources',
        question: 'Which payment sources can I combine?',
        answer: [
          `${listing(SOURCE_TYPES.map((type) => SOURCE_TYPE_LABELS[type]))} sources. Accepted providers: ${SOURCE_TYPES.map(
            (type) => `${SOURCE_TYPE_LABELS[type]}: ${listing(PROVIDERS_BY_SOURCE_TYPE[type].map((id) => PROVIDER_LABELS[id]))}`,
          ).join('; ')}.`,
        ],
      },
      {
        id: 'how-combine-works',
        question: 'How does a combine work?',
        answer: [
          `1. Enter the total you need, including a tax buffer (we recommend ${RECOMMENDED_TAX_BUFFER_PERCENT}%) for sales tax and shipping. 2. Add your payment sources and the amount to charge to each; we show what reaches the card after fees. 3. Review every fee and create your virtual card.`,
        ],
      },
      {
        id: 'monthly-limit',
        question: 'How many combines can I make each month?',
        answer: [
          `It depends on your plan. ${perPlan(combineLimit)}. Completed combines are counted per calendar month (UTC); saved or unfinished ones do not count.`,
        ],
      },
      {
        id: 'max-amount',
        question: 'What is the largest card I can create?',
        answer: [`A single virtual card can hold up to ${formatUsd(MAX_CARD_AMOUNT_CENTS)}.`],
      },
      {
        id: 'bnpl',
        question: 'How do buy-now-pay-later (BNPL) sources work?',
        answer: [
          `PayWeave works with ${bnplNames}. In the BNPL provider's app you create a one-time card of ${oneTimeCardPercent} of the amount you want from it (the extra ${bnplAllowance} covers the provider's fee), using ${options.payAddress} as the merchant name, and then enter that card in PayWeave.`,
          'Whatever part of the allowance the provider does not charge is returned to you as a rebate.',
        ],
      },
      {
        id: 'save-for-later',
        question: 'Can I save a combine and finish it later?',
        answer: [
          'Yes. On the BNPL steps choose Save for Later; your progress appears under Resume Combine, where you can continue or delete it. For your safety we keep only card tokens, never full card numbers or CVVs.',
        ],
      },
    ],
  };
}
