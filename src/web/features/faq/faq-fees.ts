import { BOOSTS } from '../../../core/boosts';
import {
  BNPL_DEFAULT_FEE_PPM,
  BNPL_PROVIDERS,
  bnplSourceFees,
  cardSourceFees,
  cashoutFee,
  CREATION_FEE_CENTS,
  PROCESSOR_FEE_PPM,
  PROCESSOR_FIXED_FEE_CENTS,
} from '../../../core/fees';
import type { BnplProviderId } from '../../../core/fees';
import { LOYALTY_MAX_PPM, LOYALTY_STEP_PPM } from '../../../core/loyalty';
import { formatUsd } from '../../../core/money';
import { PLANS } from '../../../core/plans';
import { PROMO } from '../../../core/promo';
import type { FaqCategory } from './faq-types';
import { bnplAllowance, listing, percent, perPlan, plans, price } from './faq-wording';

const bnplIds = Object.keys(BNPL_PROVIDERS) as BnplProviderId[];
const bnplRates = listing(bnplIds.map((id) => `${BNPL_PROVIDERS[id].label} ${percent(BNPL_PROVIDERS[id].feePpm)}`));

// Worked examples computed by the same functions the server uses.
const exampleCardCharge = 30_000;
const exampleCard = cardSourceFees(exampleCardCharge, PLANS.free.productFeePpm);
const exampleBnplCharge = 15_000;
const exampleBnpl = bnplSourceFees(exampleBnplCharge, 'klarna', PLANS.free.productFeePpm);
const exampleCashoutAmount = 10_000;
const exampleCashout = cashoutFee({ amountCents: exampleCashoutAmount, plan: 'free', promoActive: false });

export const fees: FaqCategory = {
  id: 'fees',
  title: 'Fees',
  items: [
    {
      id: 'fees-overview',
      question: 'What fees does PayWeave charge?',
      answer: [
        `Each card source pays the card processor's fee of ${percent(PROCESSOR_FEE_PPM)} + ${formatUsd(PROCESSOR_FIXED_FEE_CENTS)} and a PayWeave product fee that depends on your plan (${perPlan((plan) => percent(plan.productFeePpm))}). Creating a card costs ${formatUsd(CREATION_FEE_CENTS)}, taken from the new card unless you choose a source to pay it.`,
        `Example on the Free plan: charging ${formatUsd(exampleCard.chargeCents)} to a card costs ${formatUsd(exampleCard.processorFeeCents)} in processing and ${formatUsd(exampleCard.productFeeCents)} in product fee, so ${formatUsd(exampleCard.netCents)} reaches your virtual card. The review step shows these figures before you confirm.`,
      ],
    },
    {
      id: 'bnpl-fees',
      question: 'What does a BNPL source cost?',
      answer: [
        `On top of the processing and product fees, BNPL providers charge their own fee: ${bnplRates} (other providers ${percent(BNPL_DEFAULT_FEE_PPM)}). The one-time card includes an allowance of ${bnplAllowance}, and you get back as a rebate whatever the provider did not charge.`,
        `Example on the Free plan: ${formatUsd(exampleBnpl.chargeCents)} from Klarna nets ${formatUsd(exampleBnpl.netCents)} on your card; the allowance is ${formatUsd(exampleBnpl.bnplFeeMaxCents)}, Klarna charges ${formatUsd(exampleBnpl.bnplFeeActualCents)} and ${formatUsd(exampleBnpl.rebateCents)} comes back to you as a rebate.`,
      ],
    },
    {
      id: 'cashout-fees',
      question: 'What does cashing out cost?',
      answer: [
        `A cash-out fee is deducted from the amount: ${perPlan((plan) => percent(plan.cashoutFeePpm))}. For example, cashing out ${formatUsd(exampleCashoutAmount)} on the Free plan costs ${formatUsd(exampleCashout.feeCents)} and pays out ${formatUsd(exampleCashout.netCents)}.`,
      ],
    },
    {
      id: 'boosts',
      question: 'What are fee boosts?',
      answer: [
        `A boost waives the product fee for one combine. You earn one for every ${BOOSTS.combinesPerBoost} completed combines, can hold up to ${BOOSTS.maxHeld} at a time, and can use up to ${BOOSTS.maxLifetimeUsed} per account. Tick the boost box on the review step to use one.`,
      ],
    },
    {
      id: 'promo',
      question: 'What is the launch promo?',
      answer: [
        `The first ${PROMO.limitCount} users who create a virtual card of ${formatUsd(PROMO.minTotalCents)} or more get 50% off the product fee, and 50% off the cash-out fee, for ${PROMO.durationMonths} months, starting with that card. It does not cover processor, card-creation or BNPL fees. The home page shows how many spots are left.`,
      ],
    },
  ],
};

export const plansAndBilling: FaqCategory = {
  id: 'plans',
  title: 'Plans and billing',
  items: [
    {
      id: 'plans-overview',
      question: 'What plans are there and what do they cost?',
      answer: plans.map((plan) => `${plan.name} (${price(plan)}): ${plan.features.join(', ')}.`),
    },
    {
      id: 'loyalty',
      question: 'What is the loyalty discount?',
      answer: [
        `Each consecutive month you stay subscribed adds ${percent(LOYALTY_STEP_PPM)} off your plan's price, starting from your second month, up to ${percent(LOYALTY_MAX_PPM)}. Cancelling resets it.`,
      ],
    },
    {
      id: 'cancel',
      question: 'Can I cancel or downgrade?',
      answer: [
        'You can cancel a paid plan in Account Settings, under Subscription. It stays active until the end of the period you paid for and then returns to Free. Other downgrades are not available.',
      ],
    },
  ],
};
