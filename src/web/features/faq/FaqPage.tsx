import { useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import * as Accordion from '@radix-ui/react-accordion';
import { usePublicConfig } from '../../lib/public-config';
import { SUPPORT_HOURS, SUPPORT_REPLY_TIME } from '../../lib/support-contact';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { Icon } from '../../ui/Icon';
import { PageHeader } from '../../ui/PageHeader';
// The contact form is shared with the support page (see docs/decisions on cross-feature imports).
import { ContactSupportForm } from '../support';
import { buildFaq, filterFaq } from './faq-content';
import './faq.css';

const DEFAULT_PAY_ADDRESS = 'pay.payweave.example';

const QUICK_LINKS: readonly { to: string; label: string }[] = [
  { to: '/create-card', label: 'Create a Card' },
  { to: '/my-cards', label: 'My Cards' },
  { to: '/cashout', label: 'Cash Out' },
  { to: '/upgrade', label: 'Compare plans' },
  { to: '/settings', label: 'Account settings' },
  { to: '/reset-password', label: 'Reset your password' },
  { to: '/support', label: 'Support' },
  { to: '/terms', label: 'Terms of Service' },
  { to: '/privacy', label: 'Privacy Policy' },
  { to: '/compliance', label: 'Compliance Statement' },
];

export default function FaqPage() {
  const { config, supportEmail } = usePublicConfig();
  const categories = useMemo(() => buildFaq({ payAddress: config?.payAddress ?? DEFAULT_PAY_ADDRESS }), [config?.payAddress]);
  const [query, setQuery] = useState('');
  const [categoryId, setCategoryId] = useState<string | null>(null);
  const [openIds, setOpenIds] = useState<string[]>(() => [categories[0]?.id ?? '']);
  const searchId = useId();

  const visible = filterFaq(categories, query, categoryId);
  const questionCount = visible.reduce((sum, category) => sum + category.items.length, 0);

  // Searching or picking a category opens what it found, so the answers are in view.
  function search(nextQuery: string) {
    setQuery(nextQuery);
    if (nextQuery.trim()) setOpenIds(filterFaq(categories, nextQuery, categoryId).map((category) => category.id));
  }
  function chooseCategory(nextId: string | null) {
    setCategoryId(nextId);
    if (nextId) setOpenIds((ids) => (ids.includes(nextId) ? ids : [...ids, nextId]));
  }
  function clearFilters() {
    setQuery('');
    setCategoryId(null);
  }

  return (
    <div className="page faq-page">
      <PageHeader
        title="FAQ & Help"
        description="Answers about combines, fees, limits, cards and payouts. Can’t find yours? Our support team is a message away."
      />
      <div className="faq-layout">
        <div className="faq-main">
          <div className="faq-tools" role="search" aria-label="Search and filter questions">
            <div className="faq-search">
              <label htmlFor={searchId} className="faq-search-label">
                Search the FAQ
              </label>
              <div className="faq-search-box">
                <Icon name="search" className="faq-search-icon" />
                <input
                  id={searchId}
                  type="search"
                  className="faq-search-input"
                  placeholder="e.g. fees, limits, PayPal"
                  value={query}
                  onChange={(event) => search(event.target.value)}
                  autoComplete="off"
                />
              </div>
            </div>
            <div className="faq-chips" role="group" aria-label="Filter by category">
              <button
                type="button"
                className="chip"
                aria-pressed={categoryId === null}
                onClick={() => chooseCategory(null)}
              >
                All
              </button>
              {categories.map((category) => (
                <button
                  key={category.id}
                  type="button"
                  className="chip"
                  aria-pressed={categoryId === category.id}
                  onClick={() => chooseCategory(category.id)}
                >
                  {category.title}
                </button>
              ))}
            </div>
          </div>

          <p className="visually-hidden" role="status">
            {/* Worded differently from the visible 'No results found' so each text is found once. */}
            {questionCount === 0
              ? 'No questions match your search.'
              : `${questionCount} ${questionCount === 1 ? 'question' : 'questions'} shown`}
          </p>

          {visible.length === 0 ? (
            <EmptyState
              icon="search"
              title="No results found"
              actions={
                <>
                  <Button variant="secondary" onClick={clearFilters}>
                    Clear search
                  </Button>
                  <a className="btn btn-ghost" href="#contact">
                    Ask support
                  </a>
                </>
              }
            >
              <p>
                Nothing matches “{query.trim() || 'your filter'}”. Try a different word, pick another category, or ask
                us directly.
              </p>
            </EmptyState>
          ) : (
            <Accordion.Root type="multiple" value={openIds} onValueChange={setOpenIds} className="faq-categories">
              {visible.map((category) => (
                <Accordion.Item key={category.id} value={category.id} className="faq-category">
                  <Accordion.Header asChild>
                    <h2 className="faq-category-heading">
                      <Accordion.Trigger className="faq-category-trigger">
                        <span>{category.title}</span>
                        <span className="faq-category-count">
                          {category.items.length} {category.items.length === 1 ? 'question' : 'questions'}
                        </span>
                        <Icon name="chevronDown" className="faq-category-chevron" />
                      </Accordion.Trigger>
                    </h2>
                  </Accordion.Header>
                  <Accordion.Content className="faq-category-content">
                    <div className="faq-items">
                      {category.items.map((item) => (
                        <div key={item.id} className="faq-item" id={`faq-${item.id}`}>
                          <h3>{item.question}</h3>
                          {item.answer.map((paragraph) => (
                            <p key={paragraph}>{paragraph}</p>
                          ))}
                        </div>
                      ))}
                    </div>
                  </Accordion.Content>
                </Accordion.Item>
              ))}
            </Accordion.Root>
          )}
        </div>

        <aside className="faq-aside" aria-labelledby="quick-links-title">
          <div className="card card--compact">
            <h2 id="quick-links-title" className="faq-aside-title">
              Quick links
            </h2>
            <ul className="faq-quick-links">
              {QUICK_LINKS.map((link) => (
                <li key={link.to}>
                  <Link to={link.to}>
                    {link.label}
                    <Icon name="arrowRight" size={16} />
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        </aside>
      </div>

      <section id="contact" className="faq-contact card" aria-labelledby="faq-contact-title">
        <div className="faq-contact-intro">
          <h2 id="faq-contact-title">Still need help? Contact support</h2>
          <p>
            Send us a message or e-mail <a href={`mailto:${supportEmail}`}>{supportEmail}</a>. We’re available{' '}
            {SUPPORT_HOURS} and reply {SUPPORT_REPLY_TIME}.
          </p>
        </div>
        <ContactSupportForm idPrefix="faq" />
      </section>
    </div>
  );
}
