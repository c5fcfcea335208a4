import { CARD_VALIDITY } from '../../../core/cards';
import type { FaqCategory } from './faq-types';
import { payoutLabels, perPlan } from './faq-wording';

export const virtualCards: FaqCategory = {
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
};

export const cashOutAndPayouts: FaqCategory = {
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
};
