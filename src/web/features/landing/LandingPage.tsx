// Long on purpose: the landing page's copy and markup, held as data and sections of one page with no
// state of its own (the promo box has its own file).
import { Link } from 'react-router';
import { usePublicConfig } from '../../lib/public-config';
import { ButtonLink } from '../../ui/Button';
import { Icon } from '../../ui/Icon';
import type { IconName } from '../../ui/Icon';
import { Notice } from '../../ui/Notice';
import { PLAN_PRICES, yearlySavingLabel, yearlySavingPercentAllPlans } from '../../../core/plan-prices';
import { PromoBox } from './PromoBox';
import './landing.css';

// Prices as the plan cards show them; the landing page keeps the money formatter out of its first load.
const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

// The landing route is budgeted at 120 KB gzip first load: it uses native <details> rather than
// Radix, no form library and no zod. Keep it that way.

/**
 * docs/rules.md#screens: illustrative sample balances, $150 + $350 + $100 = $600. Not anyone's real account:
 * marketing copy, written out as text so the landing chunk need not load the money helpers.
 */
const SAMPLE_SOURCES: readonly { label: string; detail: string; amount: string }[] = [
  { label: 'Debit card', detail: 'Visa •••• 0142', amount: '$150.00' },
  { label: 'Credit card', detail: 'Mastercard •••• 7781', amount: '$350.00' },
  { label: 'Buy now, pay later', detail: 'Klarna one-time card', amount: '$100.00' },
];
const SAMPLE_TOTAL = '$600.00';

const FEATURES: readonly { icon: IconName; title: string; text: string }[] = [
  {
    icon: 'layers',
    title: 'Mix any sources',
    text: 'Credit, debit and prepaid cards, and buy-now-pay-later plans from Affirm, Klarna, Zip or Afterpay, in one go.',
  },
  {
    icon: 'card',
    title: 'One virtual card',
    text: 'Get a single virtual Visa or Mastercard for the whole amount, ready for the purchase you have in mind.',
  },
  {
    icon: 'percent',
    title: 'Every fee up front',
    text: 'You see each source’s processing and product fee before anything is charged. No surprises after checkout.',
  },
  {
    icon: 'wallet',
    title: 'Spend, reuse or cash out',
    text: 'Left something on the card? Spend it later, use it as a source for your next card, or cash it out.',
  },
];

const STEPS: readonly { title: string; text: string }[] = [
  {
    title: 'Enter your total',
    text: 'Type the amount you need, including a tax buffer (we suggest 10%) so the card covers sales tax and shipping.',
  },
  {
    title: 'Add your payment sources',
    text: 'Pick each card or BNPL plan and the amount to take from it. We show what reaches your card after fees.',
  },
  {
    title: 'Get your virtual card',
    text: 'Review the fees, confirm, and your virtual card is ready with its number, expiry and CVV.',
  },
];

const FAQ_TEASER: readonly { question: string; answer: string }[] = [
  {
    question: 'Is PayWeave a bank or a lender?',
    answer:
      'No. PayWeave is not a bank and offers no loans. We never ask for bank logins and hold no stored value: the money on a virtual card comes from the sources you choose, and the cards are issued by compliant partners.',
  },
  {
    question: 'Which payment sources can I combine?',
    answer:
      'Credit, debit and prepaid cards, and buy-now-pay-later plans from Affirm, Klarna, Zip and Afterpay. You can mix several in one combine.',
  },
  {
    question: 'What does it cost?',
    answer:
      `The Free plan has no subscription. Each source pays the card processor’s fee and a small product fee that depends on your plan; the review step lists every fee before you create the card. Premium is ${dollars(PLAN_PRICES.premium.monthlyCents)} and Premium+ ${dollars(PLAN_PRICES['premium+'].monthlyCents)} a month; yearly billing: ${yearlySavingLabel(yearlySavingPercentAllPlans())}.`,
  },
  {
    question: 'What happens to money left on the card?',
    answer:
      'It stays on the card. You can spend it, use the card as a source in a later combine, or cash it out to a payout method such as ACH.',
  },
];

export default function LandingPage() {
  const { demoMode, supportEmail } = usePublicConfig();
  return (
    <div className="landing">
      <section className="hero" aria-labelledby="hero-title">
        <div className="container hero-grid">
          <div className="hero-copy">
            <p className="eyebrow">One card. Every way you pay.</p>
            <h1 id="hero-title">Combine your payment sources into one virtual card</h1>
            <p className="hero-lead">
              Split a purchase across credit, debit, prepaid and buy-now-pay-later sources. PayWeave weaves them into a
              single virtual card you can spend, reuse or cash out.
            </p>
            <div className="button-row">
              <ButtonLink to="/register" size="lg">
                Create a free account
                <Icon name="arrowRight" size={18} />
              </ButtonLink>
              <a href="#how-it-works" className="btn btn-secondary btn-lg">
                How it works
              </a>
            </div>
            <ul className="hero-points">
              <li>
                <Icon name="check" size={16} />
                Not a bank, no loans
              </li>
              <li>
                <Icon name="check" size={16} />
                No bank logins
              </li>
              <li>
                <Icon name="check" size={16} />
                Free plan available
              </li>
            </ul>
          </div>
          <SampleCombine />
        </div>
      </section>

      <div className="container landing-promo">
        <PromoBox />
      </div>

      <section id="how-it-works" className="landing-section" aria-labelledby="features-title">
        <div className="container">
          <div className="section-intro">
            <p className="eyebrow">How it works</p>
            <h2 id="features-title">Your payment methods, woven together</h2>
            <p>When no single card covers a purchase, PayWeave lets several of them share it, openly and on your terms.</p>
          </div>
          <ul className="feature-grid">
            {FEATURES.map((feature) => (
              <li key={feature.title} className="card feature-card">
                <span className="feature-icon">
                  <Icon name={feature.icon} size={24} />
                </span>
                <h3>{feature.title}</h3>
                <p>{feature.text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="landing-section landing-section--muted" aria-labelledby="steps-title">
        <div className="container">
          <div className="section-intro">
            <p className="eyebrow">Three steps</p>
            <h2 id="steps-title">From several sources to one card in minutes</h2>
          </div>
          <ol className="steps">
            {STEPS.map((step, index) => (
              <li key={step.title} className="step">
                <span className="step-number" aria-hidden="true">
                  {index + 1}
                </span>
                <h3>
                  <span className="visually-hidden">Step {index + 1}: </span>
                  {step.title}
                </h3>
                <p>{step.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section className="landing-section" aria-labelledby="faq-teaser-title">
        <div className="container faq-teaser">
          <div className="section-intro">
            <p className="eyebrow">Questions</p>
            <h2 id="faq-teaser-title">Frequently asked questions</h2>
            <p>
              Limits, fees, card validity, payouts and more are answered in the <Link to="/faq">full FAQ</Link>.
            </p>
          </div>
          <div className="faq-teaser-list">
            {FAQ_TEASER.map((item) => (
              <details key={item.question} className="faq-teaser-item">
                <summary>
                  {item.question}
                  <Icon name="chevronDown" size={20} className="faq-teaser-chevron" />
                </summary>
                <p>{item.answer}</p>
              </details>
            ))}
            <p className="faq-teaser-more">
              <Link to="/faq">
                See all questions
                <Icon name="arrowRight" size={16} />
              </Link>
            </p>
          </div>
        </div>
      </section>

      <section className="landing-cta" aria-labelledby="cta-title">
        <div className="container landing-cta-inner">
          <div>
            <h2 id="cta-title">Ready to combine your first card?</h2>
            <p>Create a free account in a minute. You only pay fees when you create a card.</p>
          </div>
          <ButtonLink to="/register" size="lg" variant="secondary" className="landing-cta-button">
            Create your free account
          </ButtonLink>
        </div>
      </section>

      <section className="container landing-contact" aria-label="Demo mode and contact">
        {demoMode ? (
          <Notice tone="warning" title="This is a demo">
            <p>
              PayWeave is running in demo mode: everything is simulated, no real transactions are processed and the
              virtual cards cannot be used for real purchases. Made-up e-mail addresses and card numbers are fine here.
              Questions? Write to <a href={`mailto:${supportEmail}`}>{supportEmail}</a>.
            </p>
          </Notice>
        ) : (
          <Notice tone="info" title="Need help?">
            <p>
              Write to <a href={`mailto:${supportEmail}`}>{supportEmail}</a> or visit the <Link to="/support">support
              page</Link>. We reply within one business day.
            </p>
          </Notice>
        )}
      </section>
    </div>
  );
}

/** The hero illustration: three sample sources adding up to one card (illustrative only). */
function SampleCombine() {
  return (
    <figure className="sample">
      <ul className="sample-sources">
        {SAMPLE_SOURCES.map((source) => (
          <li key={source.label} className="sample-source">
            <span>
              <span className="sample-source-label">{source.label}</span>
              <span className="sample-source-detail">{source.detail}</span>
            </span>
            <span className="money sample-source-amount">{source.amount}</span>
          </li>
        ))}
      </ul>
      <div className="sample-card">
        <div className="sample-card-top">
          <span className="sample-card-brand">PayWeave</span>
          <span className="sample-card-kind">Virtual card</span>
        </div>
        <p className="sample-card-amount money">{SAMPLE_TOTAL}</p>
        <div className="sample-card-bottom">
          <span aria-hidden="true">•••• •••• •••• 4821</span>
          <span className="visually-hidden">Card ending in 4821</span>
          <span>VISA</span>
        </div>
      </div>
      <figcaption className="sample-caption">
        Illustrative example: {SAMPLE_SOURCES.map((source) => source.amount).join(' + ')} = {SAMPLE_TOTAL} on one
        card. Sample balances, not a real account.
      </figcaption>
    </figure>
  );
}
