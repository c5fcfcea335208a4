import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import FaqPage from './FaqPage';
import { fakeApi, renderPage } from '../../test/render';

const config = { body: { demoMode: true, supportEmail: 'help@payweave.test', payAddress: 'pay.example.test' } };

function renderFaq() {
  fakeApi({ 'GET /api/config': config });
  return renderPage(<FaqPage />, { path: '/faq' });
}

/** The accordion's button for a category, found by the category heading it sits in. */
function categoryTrigger(title: string): HTMLElement {
  const heading = screen.getByRole('heading', { level: 2, name: new RegExp(`^${title} \\d+ questions?$`) });
  return within(heading).getByRole('button');
}

function chip(name: string): HTMLElement {
  return within(screen.getByRole('group', { name: 'Filter by category' })).getByRole('button', { name });
}

describe('FAQ page', () => {
  it('opens with the first category expanded and the others collapsed', async () => {
    const { user } = renderFaq();
    expect(screen.getByRole('heading', { level: 1, name: 'FAQ & Help' })).toBeVisible();
    expect(categoryTrigger('Getting started')).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('heading', { level: 3, name: 'What is PayWeave?' })).toBeVisible();
    expect(categoryTrigger('Fees')).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('heading', { level: 3, name: 'What does cashing out cost?' })).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(/^\d+ questions shown$/);
    expect(chip('All')).toHaveAttribute('aria-pressed', 'true');
    // The pay address comes from the server's configuration.
    await user.click(categoryTrigger('Combining sources'));
    expect(await screen.findByText(/using pay\.example\.test as the merchant name/)).toBeVisible();
  });

  it('a category opens and closes from its heading, and several can be open at once', async () => {
    const { user } = renderFaq();
    const fees = categoryTrigger('Fees');
    await user.click(fees);
    expect(fees).toHaveAttribute('aria-expanded', 'true');
    expect(categoryTrigger('Getting started')).toHaveAttribute('aria-expanded', 'true');
    await user.click(fees);
    expect(fees).toHaveAttribute('aria-expanded', 'false');
  });

  it('searching shows only matching questions, opens their categories and says how many', async () => {
    const { user } = renderFaq();
    await user.type(screen.getByRole('searchbox', { name: 'Search the FAQ' }), 'PayPal');
    expect(categoryTrigger('Cash out and payouts')).toHaveAttribute('aria-expanded', 'true');
    expect(screen.queryByRole('heading', { level: 2, name: /^Getting started/ })).not.toBeInTheDocument();
    const shown = screen.getAllByRole('heading', { level: 3 });
    expect(shown.length).toBeGreaterThan(0);
    expect(screen.getByRole('status')).toHaveTextContent(
      `${shown.length} ${shown.length === 1 ? 'question' : 'questions'} shown`,
    );
  });

  it('a search with no match says so, and Clear search brings every category back', async () => {
    const { user } = renderFaq();
    await user.type(screen.getByRole('searchbox', { name: 'Search the FAQ' }), 'zebra');
    expect(screen.getByRole('heading', { name: 'No results found' })).toBeVisible();
    expect(screen.getByText('Nothing matches “zebra”. Try a different word, pick another category, or ask us directly.')).toBeVisible();
    expect(screen.getByRole('status')).toHaveTextContent('No questions match your search.');
    expect(screen.getByRole('link', { name: 'Ask support' })).toHaveAttribute('href', '#contact');
    await user.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(screen.getByRole('searchbox', { name: 'Search the FAQ' })).toHaveValue('');
    expect(categoryTrigger('Security and privacy')).toBeVisible();
  });

  it('a category chip narrows the list to that category and opens it', async () => {
    const { user } = renderFaq();
    await user.click(chip('Fees'));
    expect(chip('Fees')).toHaveAttribute('aria-pressed', 'true');
    expect(chip('All')).toHaveAttribute('aria-pressed', 'false');
    expect(categoryTrigger('Fees')).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getAllByRole('heading', { level: 2, name: /\d+ questions?$/ })).toHaveLength(1);
    await user.click(chip('All'));
    expect(categoryTrigger('Getting started')).toBeVisible();
  });

  it('offers quick links and a way to contact support', async () => {
    renderFaq();
    const quickLinks = screen.getByRole('complementary', { name: 'Quick links' });
    expect(within(quickLinks).getByRole('link', { name: 'Reset your password' })).toHaveAttribute('href', '/reset-password');
    expect(within(quickLinks).getAllByRole('link')).toHaveLength(10);
    const contact = screen.getByRole('region', { name: 'Still need help? Contact support' });
    expect(await within(contact).findByRole('link', { name: 'help@payweave.test' })).toHaveAttribute(
      'href',
      'mailto:help@payweave.test',
    );
    expect(within(contact).getByRole('textbox', { name: /Message/ })).toBeVisible();
  });
});
