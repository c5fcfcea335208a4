// Long on purpose: the privacy notice's text, as data for LegalDocument.
import { Link } from 'react-router';
import { ContactBlock } from './ContactBlock';
import { LEGAL_EFFECTIVE_DATE, LEGAL_EFFECTIVE_ISO_DATE } from './legal-dates';
import { LegalDocument } from './LegalDocument';
import type { LegalSection } from './LegalDocument';

const SECTIONS: readonly LegalSection[] = [
  {
    id: 'collect',
    title: 'Information we collect',
    body: (
      <>
        <h3>Information you give us</h3>
        <ul>
          <li>Your e-mail address and a password (we keep only a strong one-way hash of the password, never the password).</li>
          <li>Your plan, billing cycle and the payout methods you add in your settings.</li>
          <li>Messages you send to support, with the name and e-mail address you give us.</li>
        </ul>
        <h3>Information created when you use PayWeave</h3>
        <ul>
          <li>
            Combines, virtual cards, cash-outs, rebates and their amounts, fees and dates, kept in a double-entry ledger.
          </li>
          <li>
            For each payment source: its type, provider, brand, the last four digits and a token from our card payment
            provider. <strong>We never store, log or send back a source’s full card number or its CVV.</strong>
          </li>
          <li>Security records: sign-ins, password changes, and each time a virtual card’s full number is revealed.</li>
        </ul>
      </>
    ),
  },
  {
    id: 'use',
    title: 'How we use it',
    body: (
      <ul>
        <li>To run your account: create and fund virtual cards, process cash-outs and show your history.</li>
        <li>To keep PayWeave and you safe: prevent fraud, limit abuse and investigate suspicious activity.</li>
        <li>To meet legal and partner obligations, such as record keeping and responding to lawful requests.</li>
        <li>To answer your support requests and send messages about your account (not marketing you did not ask for).</li>
      </ul>
    ),
  },
  {
    id: 'sharing',
    title: 'Who we share it with',
    body: (
      <>
        <p>We do not sell your personal information. We share only what each party needs:</p>
        <ul>
          <li>our card payment provider, to pre-authorise and charge your sources;</li>
          <li>the compliant partners that issue the virtual cards;</li>
          <li>buy-now-pay-later providers and payout providers you choose to use;</li>
          <li>service providers that host our systems or send our e-mail, under contracts that protect your data;</li>
          <li>authorities, when the law requires it.</li>
        </ul>
      </>
    ),
  },
  {
    id: 'cookies',
    title: 'Cookies',
    body: (
      <p>
        We use one essential cookie to keep you signed in. It cannot be read by scripts, is sent only to PayWeave, and
        expires when you log out (or after 30 days if you chose “remember me”, otherwise when you close the browser or
        after 12 hours without activity). We use no advertising cookies.
      </p>
    ),
  },
  {
    id: 'security',
    title: 'How we protect it',
    body: (
      <ul>
        <li>Everything travels over encrypted connections.</li>
        <li>Passwords are hashed with Argon2id; virtual card numbers and CVVs are encrypted with AES-256-GCM.</li>
        <li>Card numbers are shown masked to the last four digits everywhere except the reveal you ask for.</li>
        <li>Access to personal data inside PayWeave is limited to staff who need it for their work.</li>
      </ul>
    ),
  },
  {
    id: 'retention',
    title: 'How long we keep it',
    body: (
      <p>
        We keep your account information while your account is open. When you close it, we delete your password,
        passkeys, two-factor settings and payout methods at once. We keep your e-mail address with your transaction and
        ledger records for as long as financial record-keeping laws require, then delete or anonymise them.
      </p>
    ),
  },
  {
    id: 'rights',
    title: 'Your choices and rights',
    body: (
      <>
        <p>
          You can see and change your e-mail address, payout methods and plan in your account settings at any time, and
          close your account there once we owe you nothing. You can also ask us for a copy of your data, or to correct
          it, by writing to us. We answer
          such requests within the time the law sets and may need to confirm your identity first.
        </p>
      </>
    ),
  },
  {
    id: 'children',
    title: 'Children',
    body: <p>PayWeave is only for people aged 18 or over. We do not knowingly collect information about children.</p>,
  },
  {
    id: 'demo',
    title: 'Demo mode',
    body: (
      <p>
        In demo mode you may use made-up e-mail addresses and card numbers, and we recommend that you do. Data entered in
        demo mode is test data: it is marked as simulated and is never sent to real card networks or payout providers.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to this policy',
    body: (
      <p>
        If we change this policy in a way that matters, we will tell you by e-mail or in the app before the change takes
        effect. The date at the top of this page shows when it last changed.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact us',
    body: (
      <>
        <p>
          Questions about your privacy? Write to us or use the form on the <Link to="/support">support page</Link>.
        </p>
        <ContactBlock />
      </>
    ),
  },
];

export default function PrivacyPage() {
  return (
    <LegalDocument
      title="Privacy Policy"
      effectiveDate={LEGAL_EFFECTIVE_DATE}
      isoDate={LEGAL_EFFECTIVE_ISO_DATE}
      intro={
        <p>
          This policy explains what information PayWeave collects, why, who we share it with and the choices you have.
          It applies together with our <Link to="/terms">Terms of Service</Link>.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
