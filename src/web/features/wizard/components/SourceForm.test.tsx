import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { CARD_MESSAGES } from '../../../../core/cards';
import type { Combine } from '../../../../contracts/combines';
import { fakeApi, renderPage } from '../../../test/render';
import type { FakeHandler } from '../../../test/render';
import { fakeCombines } from '../../../test/fake-combines';
import { fill } from '../../../test/user';
import type { AddSourceOutcome } from '../use-wizard';
import { SourceForm } from './SourceForm';

// The source form on its own: what it refuses before anything is sent (each message on its
// field), what it sends, a decline said beside the form with what was typed kept, and the lock
// while a card is being authorized.

async function setup(options: { adding?: boolean; outcome?: AddSourceOutcome } = {}) {
  const server = fakeCombines();
  fakeApi(server.routes);
  const started = await (server.routes['POST /api/combines'] as FakeHandler)({ body: { baseInput: '100', bufferInput: '0', bufferMode: 'percent' }, url: new URL('http://localhost/api/combines'), headers: new Headers() });
  const combine = started.body as Combine;
  const onAdd = vi.fn(async () => options.outcome ?? ({ ok: true } as const));
  const onAdded = vi.fn();
  const page = renderPage(<SourceForm combine={combine} activeCards={[]} prefill={null} onPrefillUsed={() => {}} onAdd={onAdd} adding={options.adding ?? false} onAdded={onAdded} />);
  return { ...page, onAdd, onAdded };
}

async function typeVisa(user: Awaited<ReturnType<typeof setup>>['user'], number = '4242424242424242') {
  await user.selectOptions(screen.getByLabelText(/^Source type/), 'credit');
  await user.selectOptions(screen.getByLabelText(/^Provider/), 'visa');
  await fill(user, screen.getByLabelText(/^Amount to charge/), '50');
  await fill(user, screen.getByLabelText(/^Card number/), number);
  await user.selectOptions(screen.getByLabelText('Expiry month'), '12');
  await user.selectOptions(screen.getByLabelText('Expiry year'), String(new Date().getFullYear() + 2));
  await fill(user, screen.getByLabelText(/^CVV/), '123');
}

describe('SourceForm (wizard step 2)', () => {
  it('refuses an empty form with the message on the Source type field, and sends nothing', async () => {
    const { user, onAdd } = await setup();
    const provider = screen.getByLabelText(/^Provider/);
    expect(provider).toBeDisabled();
    expect(provider).toHaveDisplayValue('Choose a type first');
    await user.click(screen.getByRole('button', { name: /Add Source/ }));
    const type = screen.getByLabelText(/^Source type/);
    await waitFor(() => expect(type).toHaveAccessibleDescription(CARD_MESSAGES.selectType));
    expect(type).toHaveAttribute('aria-invalid', 'true');
    expect(onAdd).not.toHaveBeenCalled();
    // Choosing a type clears its message, and the provider can be picked.
    await user.selectOptions(type, 'credit');
    expect(type).not.toHaveAttribute('aria-invalid');
    expect(screen.getByLabelText(/^Provider/)).toBeEnabled();
  });

  it('a card number too short is refused on the Card number field', async () => {
    const { user, onAdd } = await setup();
    await typeVisa(user, '42424242');
    await user.click(screen.getByRole('button', { name: /Add Source/ }));
    const number = screen.getByLabelText(/^Card number/);
    await waitFor(() => expect(number).toHaveAccessibleDescription(CARD_MESSAGES.invalidCardNumber));
    expect(number).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText(/^Source type/)).not.toHaveAttribute('aria-invalid');
    expect(onAdd).not.toHaveBeenCalled();
  });

  it('sends the card as the API takes it, then empties the form', async () => {
    const { user, onAdd, onAdded } = await setup();
    await typeVisa(user);
    expect(screen.getByLabelText(/^Card number/)).toHaveValue('4242 4242 4242 4242');
    await user.click(screen.getByRole('button', { name: /Add Source/ }));
    await waitFor(() => expect(onAdded).toHaveBeenCalledTimes(1));
    expect(onAdd).toHaveBeenCalledWith({ type: 'credit', provider: 'visa', chargeCents: 5_000, cardNumber: '4242424242424242', expMonth: 12, expYear: new Date().getFullYear() + 2, cvv: '123' });
    // The card number and CVV are gone with the form, which starts again from the type.
    expect(screen.getByLabelText(/^Source type/)).toHaveValue('');
    expect(screen.queryByLabelText(/^Card number/)).toBeNull();
    expect(screen.queryByLabelText(/^CVV/)).toBeNull();
  });

  it('a decline is said beside the form, with what was typed kept for Try again', async () => {
    const { user, onAdd } = await setup({ outcome: { ok: false, declined: true, message: 'Insufficient funds for pre-authorization' } });
    await typeVisa(user);
    await user.click(screen.getByRole('button', { name: /Add Source/ }));
    const alert = await screen.findByRole('alert');
    expect(alert).toBeVisible();
    expect(alert).toHaveTextContent('Card declined');
    expect(alert).toHaveTextContent('Insufficient funds for pre-authorization');
    expect(screen.getByLabelText(/^Card number/)).toHaveValue('4242 4242 4242 4242');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(onAdd).toHaveBeenCalledTimes(2));
  });

  it('a field error the API names lands on the field its `details` path names, whatever its words', async () => {
    // The words are the card number's, the path the CVV's: the path decides.
    const { user, onAdd } = await setup({
      outcome: { ok: false, declined: false, message: CARD_MESSAGES.invalidCardNumber, fieldErrors: [{ path: '/cvv', message: CARD_MESSAGES.invalidCardNumber }] },
    });
    await typeVisa(user);
    await user.click(screen.getByRole('button', { name: /Add Source/ }));
    await waitFor(() => expect(onAdd).toHaveBeenCalledTimes(1));
    const cvv = screen.getByLabelText(/^CVV/);
    await waitFor(() => expect(cvv).toHaveAccessibleDescription(CARD_MESSAGES.invalidCardNumber));
    expect(cvv).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText(/^Card number/)).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByRole('alert')).toBeNull();
    // Editing the field takes its error away; what was typed stays.
    await fill(user, cvv, '456');
    expect(cvv).not.toHaveAttribute('aria-invalid');
    expect(screen.getByLabelText(/^Card number/)).toHaveValue('4242 4242 4242 4242');
  });

  it('a refusal that names no field of the form is said above the button, on no field', async () => {
    const message = 'A combine can have at most 10 payment sources.';
    const { user } = await setup({ outcome: { ok: false, declined: false, message, fieldErrors: [{ path: '/somethingElse', message: 'Not here' }] } });
    await typeVisa(user);
    await user.click(screen.getByRole('button', { name: /Add Source/ }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(message);
    expect(alert).not.toHaveTextContent('Card declined');
    for (const label of [/^Source type/, /^Provider/, /^Amount to charge/, /^Card number/, /^CVV/]) expect(screen.getByLabelText(label)).not.toHaveAttribute('aria-invalid');
    // An edit answers it.
    await fill(user, screen.getByLabelText(/^Amount to charge/), '40');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('is locked while a card is being authorized', async () => {
    await setup({ adding: true });
    expect(screen.getByLabelText(/^Source type/)).toBeDisabled();
    expect(screen.getByLabelText(/^Amount to charge/)).toBeDisabled();
    expect(screen.getByRole('button', { name: /Authoriz|Processing|Add Source/ })).toBeDisabled();
  });
});
