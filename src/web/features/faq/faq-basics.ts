// The FAQ's categories that state no figure: what PayWeave is, and security and privacy.
import type { FaqCategory } from './faq-types';

export const gettingStarted: FaqCategory = {
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
};

export const securityAndPrivacy: FaqCategory = {
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
};
