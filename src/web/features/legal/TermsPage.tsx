// Long on purpose: the terms' text, as data (SECTIONS) for LegalDocument, with its figures from the core.
import { Link } from 'react-router';
import { CARD_VALIDITY } from '../../../core/cards';
import { formatPpmAsPercent, formatUsd } from '../../../core/money';
import { PAYOUT_METHOD_LABELS, PLAN_IDS, PLANS } from '../../../core/plans';
import { PROMO } from '../../../core/promo';
import { ContactBlock } from './ContactBlock';
import { LEGAL_EFFECTIVE_DATE, LEGAL_EFFECTIVE_ISO_DATE } from './legal-dates';
import { LegalDocument } from './LegalDocument';
import type { LegalSection } from './LegalDocument';

const payoutList = (methods: readonly (keyof typeof PAYOUT_METHOD_LABELS)[]) =>
  methods.map((method) => PAYOUT_METHOD_LABELS[method]).join(', ');

const SECTIONS: readonly LegalSection[] = [
  {
    id: 'about',
    title: 'About PayWeave',
    body: (
      <>
        <p>
          PayWeave is a technology service that lets you combine several payment sources (credit, debit and prepaid cards
          and buy-now-pay-later plans) into one virtual card. These Terms of Service (the “Terms”) are an agreement
          between you and PayWeave about your use of the PayWeave website and app (the “Service”).
        </p>
        <ul>
          <li>
            <strong>PayWeave is not a bank.</strong> We do not take deposits and your balance is not a bank account.
          </li>
          <li>
            <strong>PayWeave offers no loans and no credit.</strong> Any credit or buy-now-pay-later plan you use is
            between you and its provider, on that provider’s terms.
          </li>
          <li>
            <strong>We never ask for your bank logins.</strong> Nobody from PayWeave will ask for your online-banking
            user name or password.
          </li>
          <li>
            <strong>We hold no stored value.</strong> The amount on a virtual card is funded by the sources you choose
            for it, when you create it.
          </li>
          <li>
            Card processing is performed by our card payment provider, and virtual cards are issued by compliant
            partners, under their own licences and rules.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'eligibility',
    title: 'Who may use PayWeave',
    body: (
      <>
        <p>
          You must be at least 18 years old and able to enter into a binding contract to open an account. You may hold
          one account, for your own personal use, and you must only add payment sources that belong to you or that you
          are authorised to use.
        </p>
        <p>
          You agree to give us accurate information and to keep your e-mail address up to date, because that is where we
          send messages about your account.
        </p>
      </>
    ),
  },
  {
    id: 'account',
    title: 'Your account and its security',
    body: (
      <>
        <p>
          Keep your password secret and do not share your account. Tell us straight away at the address below if you
          think someone else has used it. Changing your e-mail address or password requires your current password.
        </p>
        <p>
          We may ask you to confirm your identity before we carry out a request, and we may refuse a request that we
          reasonably believe was not made by you.
        </p>
      </>
    ),
  },
  {
    id: 'combines',
    title: 'Combining sources into a virtual card',
    body: (
      <>
        <p>
          A “combine” is one request to fund a virtual card from one or more sources. You choose the card’s total
          (we recommend adding a buffer for tax and shipping), each source and the amount to charge to it. When you add
          a source, we ask its issuer to pre-authorise the amount; a source that is declined cannot be used.
        </p>
        <p>
          Before you confirm, the review step shows every fee and the exact amount that will reach the card. Nothing
          is charged until you choose <em>Create Virtual Card</em>. Creating a card is protected against double
          submission: if your connection drops and you try again, you are not charged twice.
        </p>
        <p>
          How many combines you can complete each calendar month depends on your plan:{' '}
          {PLAN_IDS.map((id) => PLANS[id])
            .map((plan) =>
              plan.monthlyCombineLimit === null
                ? `unlimited on ${plan.name}`
                : `${plan.monthlyCombineLimit} on ${plan.name}`,
            )
            .join(', ')}
          .
        </p>
      </>
    ),
  },
  {
    id: 'fees',
    title: 'Fees, plans and billing',
    body: (
      <>
        <p>
          Each card source pays the card processor’s fee and a PayWeave product fee that depends on your plan (
          {PLAN_IDS.map((id) => PLANS[id])
            .map((plan) => `${plan.name} ${formatPpmAsPercent(plan.productFeePpm)}`)
            .join(', ')}
          ). Buy-now-pay-later sources may also carry the provider’s own fee; any part of the allowance that the
          provider does not charge is returned to you as a rebate. Every fee is shown in the app before you confirm, and
          the <Link to="/faq">FAQ</Link> explains how each one is calculated.
        </p>
        <p>
          Paid plans (Premium and Premium+) are billed monthly or yearly in advance. You can cancel at any time in your
          account settings: the plan stays active until the end of the period you paid for and then returns to Free. We
          do not refund partial periods unless the law requires it.
        </p>
      </>
    ),
  },
  {
    id: 'cards',
    title: 'Virtual cards',
    body: (
      <>
        <p>
          A general virtual card is valid for {CARD_VALIDITY.generalMonths} months from issue. A single-use card closes
          when its balance reaches zero or {CARD_VALIDITY.singleUseDays} days after issue, whichever comes first. Cards
          can be used wherever the card network is accepted online, subject to the issuing partner’s rules.
        </p>
        <p>
          Treat your card details like cash. Each time you reveal a card’s full number we record it, to protect you. A
          card’s balance can never go below zero; a purchase larger than the balance will be declined.
        </p>
      </>
    ),
  },
  {
    id: 'cash-out',
    title: 'Cashing out',
    body: (
      <>
        <p>
          You may cash out the remaining balance of an active card to a payout method that your plan allows (
          {PLAN_IDS.map((id) => PLANS[id])
            .map((plan) => `${plan.name}: ${payoutList(plan.payoutMethods)}`)
            .join('; ')}
          ). A cash-out fee of{' '}
          {PLAN_IDS.map((id) => PLANS[id])
            .map((plan) => `${formatPpmAsPercent(plan.cashoutFeePpm)} (${plan.name})`)
            .join(', ')}{' '}
          is deducted from the amount, and the net amount is shown before you confirm. ACH transfers usually arrive in 1
          to 3 business days.
        </p>
      </>
    ),
  },
  {
    id: 'demo',
    title: 'Demo mode and test accounts',
    body: (
      <>
        <p>
          While PayWeave runs in demo mode, everything is simulated: no real transactions are processed, the virtual
          cards cannot be used for real purchases, and made-up e-mail addresses and card numbers are accepted.
        </p>
        <p>
          <strong>Demo and test accounts cannot cash out real money or receive real payouts.</strong> Balances shown on
          them have no monetary value and cannot be transferred to a live account.
        </p>
      </>
    ),
  },
  {
    id: 'promo',
    title: 'Launch promotion',
    body: (
      <p>
        The first {PROMO.limitCount} users who complete a virtual card with a total of {formatUsd(PROMO.minTotalCents)}{' '}
        or more receive 50% off the PayWeave product fee, and 50% off the cash-out fee, for {PROMO.durationMonths} months
        from that card. The discount does not apply to card-processor, card-creation or buy-now-pay-later fees. Each
        person can receive the promotion once; it ends when all spots are claimed, and the number of spots left is shown
        on our home page.
      </p>
    ),
  },
  {
    id: 'acceptable-use',
    title: 'Acceptable use',
    body: (
      <>
        <p>You must not use PayWeave to:</p>
        <ul>
          <li>use a card, account or buy-now-pay-later plan that is not yours or that you are not allowed to use;</li>
          <li>commit fraud, launder money, finance illegal activity or evade sanctions;</li>
          <li>buy goods or services that are illegal where you or the merchant are;</li>
          <li>probe, overload or interfere with the Service, or access data that is not yours.</li>
        </ul>
        <p>
          We may decline, reverse or report activity that breaks these rules, as the law and our partners require.
        </p>
      </>
    ),
  },
  {
    id: 'suspension',
    title: 'Suspension and closing your account',
    body: (
      <p>
        You can stop using PayWeave at any time, and close your account in your account settings once your cards hold
        no money and no rebate is waiting to be paid to you. We may suspend or close an account that breaks these
        Terms, that we are required to close by law or by our partners, or that shows signs of fraud. Unless the law
        prevents it, we will tell you why and let you cash out any remaining balance you are entitled to.
      </p>
    ),
  },
  {
    id: 'liability',
    title: 'Disclaimers and limitation of liability',
    body: (
      <>
        <p>
          We work hard to keep PayWeave available and accurate, but the Service is provided “as is”. We are not
          responsible for the goods or services you buy with a virtual card, for decisions of card issuers,
          buy-now-pay-later providers or merchants, or for delays caused by events outside our reasonable control.
        </p>
        <p>
          To the extent the law allows, our total liability to you for any claim is limited to the fees you paid us in
          the three months before the claim. Nothing in these Terms limits rights you have under consumer-protection
          law that cannot be limited by contract.
        </p>
      </>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to these Terms',
    body: (
      <p>
        We may update these Terms. When a change is material we will tell you by e-mail or in the app at least 30 days
        before it takes effect. If you do not agree, you can close your account before then; continuing to use PayWeave
        after that date means you accept the new Terms.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact us',
    body: (
      <>
        <p>
          Questions about these Terms, or a complaint? Write to us or use the form on the{' '}
          <Link to="/support">support page</Link>.
        </p>
        <ContactBlock />
      </>
    ),
  },
];

export default function TermsPage() {
  return (
    <LegalDocument
      title="Terms of Service"
      effectiveDate={LEGAL_EFFECTIVE_DATE}
      isoDate={LEGAL_EFFECTIVE_ISO_DATE}
      intro={
        <p>
          Please read these Terms carefully. By creating an account or using PayWeave you agree to them, to our{' '}
          <Link to="/privacy">Privacy Policy</Link> and to our <Link to="/compliance">Compliance Statement</Link>.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
