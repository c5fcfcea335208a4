import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { fakeApi, renderPage } from '../../../test/render';
import { fakeCombines } from '../../../test/fake-combines';
import { fundedDraft, WizardHarness } from '../../../test/wizard-harness';
import { ReviewStep } from './ReviewStep';

// The review on its own, fed by the wizard's hook on a funded draft ($100.00 from one Visa): the
// server's figures, a choice sent with the next quote, Create sending the figures the user saw,
// and a quote that fails to load said with a retry.

async function setup(options: { failQuote?: boolean } = {}) {
  const server = fakeCombines();
  await fundedDraft(server);
  if (options.failQuote) server.failNextQuote();
  const api = fakeApi(server.routes);
  const page = renderPage(
    <WizardHarness options={{ resumeId: 'combine-1', resumeStep: 4, prefill: null }} onWizard={() => {}} show={(wizard) => <ReviewStep wizard={wizard} onStartOver={vi.fn()} />} />,
    { path: '/create-card' },
  );
  return { ...page, server, api };
}

describe('ReviewStep', () => {
  it('shows the server’s figures, and a changed choice asks for a new quote with it', async () => {
    const { user, api } = await setup();
    expect(await screen.findByTestId('quote-card-amount')).toHaveTextContent('$99.90');
    expect(screen.getByRole('radio', { name: /The new card/ })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: /Single-use/ }));
    await waitFor(() => expect(api.bodiesOf('POST', '/api/combines/combine-1/quote').at(-1)).toMatchObject({ cardType: 'single-use' }));
    expect(screen.getByRole('radio', { name: /Single-use/ })).toBeChecked();
  });

  it('Create sends the figures on screen, once', async () => {
    const { user, api } = await setup();
    const create = await screen.findByRole('button', { name: /Create Virtual Card/ });
    await waitFor(() => expect(create).toBeEnabled());
    await user.click(create);
    await waitFor(() => expect(api.bodiesOf('POST', '/api/combines/combine-1/complete')).toHaveLength(1));
    expect(api.bodiesOf('POST', '/api/combines/combine-1/complete')[0]).toMatchObject({ cardType: 'general', creationFeeSourceIdx: -1, expected: { cardAmountCents: 9_990 } });
  });

  it('a quote that fails to load is said, with a retry that shows the figures', async () => {
    const { user } = await setup({ failQuote: true });
    expect(await screen.findByRole('heading', { name: 'Failed to load the fee breakdown' })).toBeVisible();
    expect(screen.queryByRole('button', { name: /Create Virtual Card/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: /Retry|Try again/ }));
    expect(await screen.findByTestId('quote-card-amount')).toHaveTextContent('$99.90');
  });
});
