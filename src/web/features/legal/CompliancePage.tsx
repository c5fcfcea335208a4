import { Link } from 'react-router';
import { ContactBlock } from './ContactBlock';
import { LEGAL_EFFECTIVE_DATE, LEGAL_EFFECTIVE_ISO_DATE } from './legal-dates';
import { LegalDocument } from './LegalDocument';
import type { LegalSection } from './LegalDocument';

const SECTIONS: readonly LegalSection[] = [
  {
    id: 'role',
    title: 'What PayWeave is, and is not',
    body: (
      <>
        <p>
          PayWeave is a technology platform that helps you combine payment sources you already have into one virtual
          card. To be clear about our role:
        </p>
        <ul>
          <li>PayWeave is not a bank and does not accept deposits.</li>
          <li>PayWeave offers no loans or credit of any kind, and does not arrange them.</li>
          <li>PayWeave never asks for your bank logins or online-banking credentials.</li>
          <li>PayWeave holds no stored value: every card is funded from your chosen sources when it is created.</li>
        </ul>
      </>
    ),
  },
  {
    id: 'partners',
    title: 'Card processing and issuing partners',
    body: (
      <p>
        Card processing is carried out by our card payment provider, a PCI DSS compliant processor. Virtual cards are
        issued by compliant partners under their own licences and card-network rules. Buy-now-pay-later plans are offered
        by their providers (such as Affirm, Klarna, Zip and Afterpay) under those providers’ own terms and approvals.
      </p>
    ),
  },
  {
    id: 'card-data',
    title: 'Protecting card data',
    body: (
      <ul>
        <li>Source card numbers are tokenised by the card payment provider when you add them.</li>
        <li>PayWeave never stores, logs or returns full source card numbers, and keeps no CVV after pre-authorisation.</li>
        <li>Virtual card numbers and CVVs are encrypted at rest with AES-256-GCM, and every reveal is audit-logged.</li>
        <li>Every movement of money is recorded in a balanced double-entry ledger; balances can never go below zero.</li>
      </ul>
    ),
  },
  {
    id: 'eligibility',
    title: 'Eligibility and identity',
    body: (
      <p>
        Accounts are for individuals aged 18 or over. We, or our partners, may ask you to verify your identity before
        enabling features or payouts, as anti-money-laundering and know-your-customer rules require.
      </p>
    ),
  },
  {
    id: 'fraud',
    title: 'Fraud prevention and anti-money-laundering',
    body: (
      <p>
        We monitor activity for signs of fraud, limit sign-in and reset attempts, and may decline, hold or report
        transactions where the law requires it. We do not serve persons or purposes subject to sanctions.
      </p>
    ),
  },
  {
    id: 'transparency',
    title: 'Fee transparency',
    body: (
      <p>
        Every fee (card processor, product, card creation, buy-now-pay-later and cash-out) is shown before you confirm,
        with the exact amount that reaches your card or your payout method. Fee rules are explained in the{' '}
        <Link to="/faq">FAQ</Link> and in our <Link to="/terms">Terms of Service</Link>.
      </p>
    ),
  },
  {
    id: 'demo',
    title: 'Demo mode',
    body: (
      <p>
        While PayWeave runs in demo mode, all transactions are simulated and no real money moves. Demo and test
        accounts cannot cash out real money or receive real payouts. Live mode will require real, verified contact and
        card information.
      </p>
    ),
  },
  {
    id: 'accessibility',
    title: 'Accessibility',
    body: (
      <p>
        We design PayWeave to meet the Web Content Accessibility Guidelines (WCAG) 2.1 at level AA. If something does
        not work for you, please tell us and we will help you by another route while we fix it.
      </p>
    ),
  },
  {
    id: 'complaints',
    title: 'Questions and complaints',
    body: (
      <>
        <p>
          If something went wrong, contact support first: we acknowledge every complaint and aim to resolve it quickly.
          You can also use the form on the <Link to="/support">support page</Link>.
        </p>
        <ContactBlock />
      </>
    ),
  },
];

export default function CompliancePage() {
  return (
    <LegalDocument
      title="Compliance Statement"
      effectiveDate={LEGAL_EFFECTIVE_DATE}
      isoDate={LEGAL_EFFECTIVE_ISO_DATE}
      intro={
        <p>
          This statement summarises how PayWeave works with regulated partners and protects your money and data. It
          supplements our <Link to="/terms">Terms of Service</Link> and <Link to="/privacy">Privacy Policy</Link>.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
