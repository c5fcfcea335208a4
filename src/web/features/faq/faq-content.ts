// The FAQ's questions and answers. Every figure (limits, fees, validity, payout methods, prices)
// is read from the domain core, so the FAQ cannot drift from the rules the server enforces.

import { RECOMMENDED_TAX_BUFFER_PERCENT } from '../../../core/amount';
import { BOOSTS } from '../../../core/boosts';
import { CARD_VALIDITY } from '../../../core/cards';
import {
  BNPL_DEFAULT_FEE_PPM,
  BNPL_FEE_MAX_PPM,
  BNPL_PROVIDERS,
  bnplSourceFees,
  cardSourceFees,
  cashoutFee,
  CREATION_FEE_CENTS,
  PROCESSOR_FEE_PPM,
  PROCESSOR_FIXED_FEE_CENTS,
  PROVIDER_LABELS,
  PROVIDERS_BY_SOURCE_TYPE,
  SOURCE_TYPE_LABELS,
  SOURCE_TYPES,
} from '../../../core/fees';
import type { BnplProviderId } from '../../../core/fees';
import { LOYALTY_MAX_PPM, LOYALTY_STEP_PPM } from '../../../core/loyalty';
import { formatPpmAsPercent, formatUsd, MAX_CARD_AMOUNT_CENTS } from '../../../core/money';
import { PAYOUT_METHOD_LABELS, PLAN_IDS, PLANS } from '../../../core/plans';
import type { PayoutMethod, Plan } from '../../../core/plans';
import { PROMO } from '../../../core/promo';

export type FaqItem = {
  id: string;
  question: string;
  /** Paragraphs of plain text: searchable as they are and rendered one <p> each. */
  answer: readonly string[];
};

export type FaqCategory = {
  id: string;
  title: string;
  items: readonly FaqItem[];
};

const plans: readonly Plan[] = PLAN_IDS.map((id) => PLANS[id]);
const percent = formatPpmAsPercent;

/** "A, B and C". */
function listing(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1] ?? ''}`;
}

function payoutLabels(methods: readonly PayoutMethod[]): string {
  return listing(methods.map((method) => PAYOUT_METHOD_LABELS[method]));
}

function perPlan(describe: (plan: Plan) => string): string {
  return plans.map((plan) => `${plan.name}: ${describe(plan)}`).join('; ');
}

function combineLimit(plan: Plan): string {
  return plan.monthlyCombineLimit === null ? 'unlimited' : `${plan.monthlyCombineLimit} per month`;
}

function price(plan: Plan): string {
  // 'Free (free)' said nothing: the price in the same form as the others, as the upgrade page has it.
  if (plan.priceMonthlyCents === 0) return `${formatUsd(0)} a month`;
  return `${formatUsd(plan.priceMonthlyCents)} a month or ${formatUsd(plan.priceYearlyCents)} a year`;
}

const bnplIds = Object.keys(BNPL_PROVIDERS) as BnplProviderId[];
const bnplNames = listing(bnplIds.map((id) => BNPL_PROVIDERS[id].label));
const bnplRates = listing(bnplIds.map((id) => `${BNPL_PROVIDERS[id].label} ${percent(BNPL_PROVIDERS[id].feePpm)}`));

// Worked examples computed by the same functions the server uses.
const exampleCardCharge = 30_000;
const exampleCard = cardSourceFees(exampleCardCharge, PLANS.free.productFeePpm);
const exampleBnplCharge = 15_000;
const exampleBnpl = bnplSourceFees(exampleBnplCharge, 'klarna', PLANS.free.productFeePpm);
const exampleCashoutAmount = 10_000;
const exampleCashout = cashoutFee({ amountCents: exampleCashoutAmount, plan: 'free', promoActive: false });
const bnplAllowance = percent(BNPL_FEE_MAX_PPM);
// 100% of the amount plus the allowance; written out because formatPpmAsPercent stops at 100%.
const oneTimeCardPercent = `${100 + BNPL_FEE_MAX_PPM / 10_000}%`;

export function buildFaq(options: { payAddress: string }): readonly FaqCategory[] {
  return [
    {
      id: 'getting-started',
      title: 'Getting started',
      items: [
        {
          id: 'what-is-payweave',
          question: 'What is PayWeave?',
          answer: [
            'PayWeave combines several payment sources (credit, debit and prepaid cards, and buy-now-pay-later plans) into one virtual Visa or Mastercard. You can spend the card, reuse its balance as a source for a later card, or cash it out.',
          ],
        },
        {
          id: 'bank',
          question: 'Is PayWeave a bank or a lender?',
          answer: [
            'No. PayWeave is not a bank and offers no loans. We never ask for your bank logins and hold no stored value. Card processing goes through our card payment provider, and virtual cards are issued by compliant partners.',
          ],
        },
        {
          id: 'who',
          question: 'Who can use PayWeave?',
          answer: [
            'Anyone aged 18 or over can sign up with an e-mail address and a password. You may only add payment sources that belong to you.',
          ],
        },
        {
          id: 'demo-mode',
          question: 'What is demo mode?',
          answer: [
            'While PayWeave runs in demo mode everything is simulated: no real transactions are processed and the virtual cards cannot be used for real purchases. Made-up e-mail addresses and card numbers are accepted.',
            'Demo and test accounts cannot cash out real money or receive real payouts.',
          ],
        },
      ],
    },
    {
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
    },
    {
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
    },
    {
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
    },
    {
      id: 'cards',
      title: 'Virtual cards',
      items: [
        {
          id: 'validity',
          question: 'How long is a virtual card valid?',
          answer: [
            `A general card is valid for ${CARD_VALIDITY.generalMonths} months. A single-use card closes when its balance reaches zero or after ${CARD_VALIDITY.singleUseDays} days, whichever comes first. You choose the type on the review step; general is the default.`,
            'The expiry printed on the card (MM/YY) is the month its validity ends, the same date My Cards shows. Demo cards cannot be used for real purchases.',
          ],
        },
        {
          id: 'remaining-balance',
          question: 'What can I do with the money left on a card?',
          answer: [
            'Spend it, use the card as a source in your next combine, or cash it out to a payout method. A card that has been fully cashed out is marked Cashed Out.',
          ],
        },
        {
          id: 'reveal',
          question: 'Where do I find my full card number?',
          answer: [
            'Open the card in My Cards and choose to reveal its details. The number is otherwise shown masked to the last four digits, and each reveal is recorded for your security.',
          ],
        },
      ],
    },
    {
      id: 'payouts',
      title: 'Cash out and payouts',
      items: [
        {
          id: 'payout-methods',
          question: 'Which payout methods can I use?',
          answer: [
            `${perPlan((plan) => payoutLabels(plan.payoutMethods))}. Add your payout methods in Account Settings; the first one becomes your preferred method.`,
          ],
        },
        {
          id: 'payout-time',
          question: 'How long does a cash-out take?',
          answer: ['ACH transfers usually arrive in 1 to 3 business days. The confirmation step shows the fee and the net amount first.'],
        },
        {
          id: 'payout-demo',
          question: 'Can I cash out in demo mode?',
          answer: [
            'You can try the whole cash-out flow, but demo and test accounts cannot cash out real money or receive real payouts.',
          ],
        },
      ],
    },
    {
      id: 'security',
      title: 'Security and privacy',
      items: [
        {
          id: 'card-storage',
          question: 'Do you store my card numbers?',
          answer: [
            'No. We keep only the brand, the last four digits and a token from our card payment provider. Full source card numbers and CVVs are never stored, logged or sent back. Your virtual card numbers are encrypted.',
          ],
        },
        {
          id: 'password-reset',
          question: 'I forgot my password. What do I do?',
          answer: [
            'Use "Forgot password" on the login page. We e-mail you a single-use link that works for one hour. For your privacy, the page says the same thing whether or not an account exists for that address.',
          ],
        },
        {
          id: 'never-ask',
          question: 'Will PayWeave ever ask for my password?',
          answer: ['Never. We will not ask for your password, your bank logins or a full card number by e-mail or phone.'],
        },
        {
          id: 'close-account',
          question: 'How do I close my account?',
          answer: [
            'In Account Settings, on the Profile tab, choose Close account and confirm with your password. First cash out or spend the money left on your cards, and add a payout method if a rebate is waiting for one: we close an account only when we owe you nothing.',
            'Closing signs you out everywhere, closes your cards, deletes saved combines (releasing their holds) and ends a paid plan without refunding the current period. You cannot reopen it yourself (write to support if you need it back), and we keep the records of your payments as the law requires.',
          ],
        },
      ],
    },
  ];
}

/** Lower-cased words of a search query; an empty list matches everything. */
export function searchTerms(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

/** An item matches when every term appears in its question or answer. */
export function itemMatches(item: FaqItem, terms: readonly string[]): boolean {
  if (terms.length === 0) return true;
  const text = `${item.question} ${item.answer.join(' ')}`.toLowerCase();
  return terms.every((term) => text.includes(term));
}

/** Categories narrowed to the chosen one and to the items matching the search; empty ones dropped. */
export function filterFaq(
  categories: readonly FaqCategory[],
  query: string,
  categoryId: string | null,
): FaqCategory[] {
  const terms = searchTerms(query);
  return categories
    .filter((category) => categoryId === null || category.id === categoryId)
    .map((category) => ({ ...category, items: category.items.filter((item) => itemMatches(item, terms)) }))
    .filter((category) => category.items.length > 0);
}
