import { describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { fakeApi, renderPage } from '../../test/render';
import { fakeCombines } from '../../test/fake-combines';
import { fundedDraft, WizardHarness } from '../../test/wizard-harness';
import { WIZARD_MESSAGES } from './use-wizard';
import type { Wizard } from './use-wizard';

// The wizard's hook on its own: a saved draft resumed, a missing one said, a source
// added through it sent to the API, a decline handed back to the form instead of a toast.

function setup(options: Parameters<typeof WizardHarness>[0]['options']) {
  const server = fakeCombines();
  const api = fakeApi(server.routes);
  let wizard: Wizard | null = null;
  renderPage(<WizardHarness options={options} onWizard={(w) => (wizard = w)} />, { path: '/create-card' });
  return { server, api, current: () => wizard! };
}

describe('useWizard', () => {
  it('resumes a saved draft with the server’s sources and funding', async () => {
    const server = fakeCombines();
    await fundedDraft(server);
    fakeApi(server.routes);
    let wizard: Wizard | null = null;
    renderPage(<WizardHarness options={{ resumeId: 'combine-1', resumeStep: 4, prefill: null }} onWizard={(w) => (wizard = w)} />, { path: '/create-card' });
    await waitFor(() => expect(wizard!.state.combineId).toBe('combine-1'));
    await waitFor(() => expect(wizard!.combine?.sources).toHaveLength(1));
    expect(wizard!.funding?.ok).toBe(true);
  });

  it('a draft that cannot be found is said once, as a refusal', async () => {
    setup({ resumeId: 'missing', prefill: null });
    expect(await screen.findByText(WIZARD_MESSAGES.resumeNotFound)).toBeVisible();
    expect(screen.getByTestId('wizard-step')).toHaveTextContent('1');
  });

  it('adds a source through the API, and hands a decline back instead of a toast', async () => {
    const { server, api, current } = setup({ resumeId: null, prefill: null });
    act(() => {
      current().actions.editAmount('baseInput', '100');
      current().actions.editAmount('bufferInput', '0');
    });
    act(() => current().actions.calculate());
    await act(async () => {
      await current().actions.continueFromAmount();
    });
    await waitFor(() => expect(screen.getByTestId('wizard-step')).toHaveTextContent('2'));
    const card = { type: 'credit' as const, provider: 'visa' as const, chargeCents: 5_000, cardNumber: '4242424242424242', expMonth: 12, expYear: new Date().getFullYear() + 2, cvv: '123' };
    let outcome = await act(() => current().actions.addSource(card));
    expect(outcome).toEqual({ ok: true });
    expect(api.bodiesOf('POST', '/api/combines/combine-1/sources')).toEqual([card]);
    await waitFor(() => expect(current().combine?.sources).toHaveLength(1));

    server.declineNext();
    outcome = await act(() => current().actions.addSource(card));
    expect(outcome).toEqual({ ok: false, declined: true, message: 'Insufficient funds for pre-authorization' });
    expect(screen.queryByText('Insufficient funds for pre-authorization')).toBeNull();
  });

  it('hands the field paths of a refusal’s `details` back to the form, with its toast', async () => {
    const server = fakeCombines();
    const details = [{ path: '/expMonth', message: 'Please enter a valid expiry date' }];
    fakeApi({ ...server.routes, 'POST /api/combines/combine-1/sources': { status: 400, body: { error: { code: 'validation_error', message: 'Please enter a valid expiry date', details } } } });
    let wizard: Wizard | null = null;
    renderPage(<WizardHarness options={{ resumeId: null, prefill: null }} onWizard={(w) => (wizard = w)} />, { path: '/create-card' });
    const current = () => wizard!;
    act(() => {
      current().actions.editAmount('baseInput', '100');
      current().actions.editAmount('bufferInput', '0');
    });
    act(() => current().actions.calculate());
    await act(async () => {
      await current().actions.continueFromAmount();
    });
    await waitFor(() => expect(screen.getByTestId('wizard-step')).toHaveTextContent('2'));
    const card = { type: 'credit' as const, provider: 'visa' as const, chargeCents: 5_000, cardNumber: '4242424242424242', expMonth: 13, expYear: new Date().getFullYear() + 2, cvv: '123' };
    const outcome = await act(() => current().actions.addSource(card));
    expect(outcome).toEqual({ ok: false, declined: false, message: 'Please enter a valid expiry date', fieldErrors: details });
    expect(await screen.findByText('Please enter a valid expiry date')).toBeVisible();
  });
});
