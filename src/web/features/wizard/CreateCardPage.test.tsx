import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import CreateCardPage from './CreateCardPage';
import { fakeApi, renderPage } from '../../test/render';
import { fill } from '../../test/user';
import type { FakeHandler } from '../../test/render';
import { profileFixture } from '../../test/fixtures';
import { fakeCombines } from '../../test/fake-combines';

// The create-card wizard driven as a user would, against a fake combine API (fees from the core).

function setup(options: { remaining?: number | null; boostsAvailable?: number } = {}) {
  const server = fakeCombines(options);
  const api = fakeApi({ 'GET /api/session': { body: { signedIn: true, profile: profileFixture() } }, ...server.routes });
  const page = renderPage(<CreateCardPage />, { path: '/create-card' });
  return { ...page, server, api };
}

const heading = (name: string) => screen.findByRole('heading', { level: 2, name });

async function amountStep(user: ReturnType<typeof setup>['user'], base: string, buffer = '10') {
  await user.type(screen.getByLabelText(/^Purchase amount/), base);
  await user.clear(screen.getByLabelText(/^Tax buffer/));
  await user.type(screen.getByLabelText(/^Tax buffer/), buffer);
  await user.click(screen.getByRole('button', { name: 'Calculate' }));
}

/** Step 1 with a $100.00 total (no buffer), then on to Sources. */
async function toSources(user: ReturnType<typeof setup>['user']) {
  await heading('Amount');
  await amountStep(user, '100', '0');
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await heading('Sources');
}

/** Step 1 with $100.00, one Visa charging what is needed, then on to the review ($99.90 on the card). */
async function toReview(user: ReturnType<typeof setup>['user']) {
  await toSources(user);
  await addCard(user);
  await waitFor(() => expect(screen.getByTestId('remaining-to-fund').textContent).toBe('$0.00'));
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await heading('Review and create');
  expect(await screen.findByTestId('quote-card-amount')).toHaveProperty('textContent', '$99.90');
}

async function addCard(user: ReturnType<typeof setup>['user'], options: { number?: string; amount?: string } = {}) {
  await user.selectOptions(screen.getByLabelText(/^Source type/), 'credit');
  await user.selectOptions(screen.getByLabelText(/^Provider/), 'visa');
  if (options.amount) await user.type(screen.getByLabelText(/^Amount to charge/), options.amount);
  else await user.click(screen.getByRole('button', { name: 'Charge the exact amount still needed' }));
  await fill(user, screen.getByLabelText(/^Card number/), options.number ?? '4242424242424242');
  await user.selectOptions(screen.getByLabelText('Expiry month'), '12');
  await user.selectOptions(screen.getByLabelText('Expiry year'), String(new Date().getFullYear() + 2));
  await user.type(screen.getByLabelText(/^CVV/), '123');
  await user.click(screen.getByRole('button', { name: /Add Source/ }));
}

describe('create-card wizard (docs/rules.md#wizard-steps; decision 052)', () => {
  it('step 1: Continue waits for Calculate, a bad amount shows the spec message, editing resets the total', async () => {
    const { user } = setup();
    expect(await heading('Amount')).toBeVisible();
    expect(await screen.findByText('3 of 3 combines left this month')).toBeVisible();
    const continueButton = screen.getByRole('button', { name: 'Continue' });
    expect(continueButton).toHaveProperty('disabled', true);
    await amountStep(user, '5o0');
    expect((await screen.findByRole('alert')).textContent).toContain('Both fields must contain only numbers or a decimal point.');
    await user.clear(screen.getByLabelText(/^Purchase amount/));
    await amountStep(user, '500');
    expect(screen.getByTestId('combined-total').textContent).toBe('$550.00');
    expect(continueButton).toHaveProperty('disabled', false);
    await user.type(screen.getByLabelText(/^Purchase amount/), '0');
    expect(screen.queryByTestId('combined-total')).toBeNull();
    expect(continueButton).toHaveProperty('disabled', true);
  });

  it('at the monthly limit, step 1 says so and nothing can start', async () => {
    const { user, api } = setup({ remaining: 0 });
    expect((await screen.findByRole('alert')).textContent).toContain('You have reached your monthly limit of 3 combines on the Free plan. Upgrade for more.');
    await amountStep(user, '100');
    expect(screen.getByRole('button', { name: 'Continue' })).toHaveProperty('disabled', true);
    expect(api.bodiesOf('POST', '/api/combines')).toEqual([]);
  });

  it('without BNPL: amount → sources → one review that creates the card → success; Back from the review goes to Sources', async () => {
    const { user, api, server, router } = setup();
    await heading('Amount');
    await amountStep(user, '100', '0');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await heading('Sources')).toBeVisible();
    // Continue on Sources waits for full funding.
    expect(screen.getByRole('button', { name: 'Continue' })).toHaveProperty('disabled', true);
    await addCard(user);
    await waitFor(() => expect(screen.getByTestId('remaining-to-fund').textContent).toBe('$0.00'));
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    // One review, straight away, with the figures and the only button that charges.
    expect(await heading('Review and create')).toBeVisible();
    expect(screen.getByText(/Step 5 of 6/)).toBeVisible();
    expect(await screen.findByTestId('quote-card-amount')).toHaveProperty('textContent', '$99.90');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(await heading('Sources')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await heading('Review and create')).toBeVisible();
    await user.click(await screen.findByRole('button', { name: 'Create Virtual Card' }));

    expect(await heading('Card Created Successfully')).toBeVisible();
    // The draft is spent: a reload of the success page starts a new card, not a dead draft.
    expect(router.state.location.search).toBe('');
    expect(screen.getByTestId('card-amount').textContent).toBe('$99.90');
    expect(screen.getByText(/Nov 25, 2027 \(printed as 11\/27\)/)).toBeVisible();
    expect(server.completed()).toBe(1);
    // The create call carried an Idempotency-Key and the figures the user saw.
    const create = api.sent.find((r) => r.path.endsWith('/complete'));
    expect(create?.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(create?.body).toMatchObject({ expected: { cardAmountCents: 9_990 } });
  });

  it('with BNPL: setup (3) and checkout (4) come before the review; Back from the checkout goes to setup', async () => {
    const { user } = setup();
    await toSources(user);
    await user.selectOptions(screen.getByLabelText(/^Source type/), 'bnpl');
    await user.selectOptions(screen.getByLabelText(/^Provider/), 'klarna');
    await user.click(screen.getByRole('button', { name: 'Charge the exact amount still needed' }));
    await user.click(screen.getByRole('button', { name: /Add Source/ }));
    await waitFor(() => expect(screen.getByTestId('remaining-to-fund').textContent).toBe('$0.00'));
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    expect(await heading('BNPL Setup')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Save for Later' })).toBeVisible();
    await user.click(screen.getByRole('button', { name: /created the card/ }));
    expect(await heading('BNPL Checkout')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(await heading('BNPL Setup')).toBeVisible();
    await user.click(screen.getByRole('button', { name: /created the card/ }));
    await heading('BNPL Checkout');

    // The checkout's own validation, then the one-time card.
    await user.click(screen.getByRole('button', { name: 'Continue to review' }));
    await waitFor(() => expect(screen.getByLabelText(/^Card number/)).toHaveAccessibleDescription('Please enter a valid card number.'));
    expect(screen.getByLabelText(/^Card number/)).toHaveAttribute('aria-invalid', 'true');
    await fill(user, screen.getByLabelText(/^Card number/), '4111 1111 1111 1111');
    await user.type(screen.getByLabelText(/^Expiry/), '12/30');
    await user.type(screen.getByLabelText(/^CVV/), '123');
    await user.click(screen.getByRole('button', { name: 'Continue to review' }));
    expect(await heading('Review and create')).toBeVisible();
  });

  it('a declined card says what happened, keeps what was typed, and Try again resends it', async () => {
    const { user, server, api } = setup();
    await toSources(user);
    // Demo mode lists the test numbers with the card fields, including the one always declined.
    await user.selectOptions(screen.getByLabelText(/^Source type/), 'credit');
    const demo = await screen.findByRole('region', { name: /Demo mode: test numbers to try/ });
    expect(within(demo).getByText(/always declined/)).toBeVisible();
    server.declineNext();
    await addCard(user);
    const declined = await screen.findByRole('alert');
    // The spec's words (the server's refusal) first, then what to do about it.
    expect(declined.textContent).toContain('Insufficient funds for pre-authorization. In demo mode about 1 in 10 pre-authorizations are declined at random');
    expect((screen.getByLabelText(/^Card number/) as HTMLInputElement).value).toBe('4242 4242 4242 4242');
    expect((screen.getByLabelText(/^CVV/) as HTMLInputElement).value).toBe('123');
    await user.click(within(declined).getByRole('button', { name: /Try again/ }));
    await waitFor(() => expect(screen.getByTestId('remaining-to-fund').textContent).toBe('$0.00'));
    expect(api.bodiesOf('POST', '/api/combines/combine-1/sources')).toHaveLength(2);
  });

  it('the always-declined demo number shows the spec’s refusal as the server words it', async () => {
    const { user, server } = setup();
    await toSources(user);
    server.declineNext();
    await addCard(user, { number: '4000 0000 0000 9995' });
    const declined = await screen.findByRole('alert');
    expect(within(declined).getByText('Insufficient funds for pre-authorization', { selector: 'p' })).toBeVisible();
  });

  it('a double click on Add Source adds the card once; on Save for Later it saves once', async () => {
    const { user, api } = setup();
    await toSources(user);
    await user.selectOptions(screen.getByLabelText(/^Source type/), 'bnpl');
    await user.selectOptions(screen.getByLabelText(/^Provider/), 'klarna');
    await user.click(screen.getByRole('button', { name: 'Charge the exact amount still needed' }));
    // Two clicks in one go, before React re-renders the button as busy (a fast double click).
    const add = screen.getByRole('button', { name: /Add Source/ });
    fireEvent.click(add);
    fireEvent.click(add);
    await waitFor(() => expect(screen.getByTestId('remaining-to-fund').textContent).toBe('$0.00'));
    expect(api.bodiesOf('POST', '/api/combines/combine-1/sources')).toHaveLength(1);
    expect(screen.getByRole('heading', { name: 'Your sources (1)' })).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await heading('BNPL Setup');
    const save = screen.getByRole('button', { name: 'Save for Later' });
    fireEvent.click(save);
    fireEvent.click(save);
    expect(await screen.findAllByText('Progress saved! You can resume later from your dashboard.')).toHaveLength(1);
    expect(api.bodiesOf('POST', '/api/combines/combine-1/save')).toHaveLength(1);
  });

  it('a reload mid-wizard (or Back then Forward) reopens the draft at the step it was on', async () => {
    const { user, router, unmount } = setup();
    await heading('Amount');
    expect(router.state.location.search).toBe('');
    await amountStep(user, '100', '0');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await heading('Sources');
    // The draft exists on the server from here on; the address names it, replacing the entry.
    await waitFor(() => expect(router.state.location.search).toBe('?combine=combine-1&step=2'));
    expect(router.state.historyAction).toBe('REPLACE');
    await addCard(user);
    await waitFor(() => expect(screen.getByTestId('remaining-to-fund').textContent).toBe('$0.00'));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await heading('Review and create');
    await waitFor(() => expect(router.state.location.search).toBe('?combine=combine-1&step=5'));

    // A reload: a new page (nothing cached) at the same address, against the same server.
    const address = `${router.state.location.pathname}${router.state.location.search}`;
    unmount();
    renderPage(<CreateCardPage />, { path: address });
    expect(await heading('Review and create')).toBeVisible();
    expect(await screen.findByTestId('quote-card-amount')).toHaveProperty('textContent', '$99.90');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(await heading('Sources')).toBeVisible();
    expect(screen.getByText(/Visa •••• 4242/)).toBeVisible();
  });

  it('the review’s choices are kept with the draft: a reload shows them as last picked (decision 160)', async () => {
    const { user, router, unmount } = setup({ boostsAvailable: 1 });
    await toReview(user);
    await user.click(screen.getByRole('radio', { name: /Single-use/ }));
    await user.click(screen.getByLabelText('Use a boost to waive the product fee'));
    await user.click(screen.getByRole('radio', { name: /Visa •••• 4242/ }));
    // The figures of the last pick: the creation fee on the source leaves the card the full $100.00.
    await waitFor(() => expect(screen.getByTestId('quote-card-amount').textContent).toBe('$100.00'));

    const address = `${router.state.location.pathname}${router.state.location.search}`;
    unmount();
    renderPage(<CreateCardPage />, { path: address });
    expect(await heading('Review and create')).toBeVisible();
    expect(await screen.findByTestId('quote-card-amount')).toHaveProperty('textContent', '$100.00');
    expect(screen.getByRole('radio', { name: /Single-use/ })).toHaveProperty('checked', true);
    expect(screen.getByLabelText('Use a boost to waive the product fee')).toHaveProperty('checked', true);
    expect(screen.getByRole('radio', { name: /Visa •••• 4242/ })).toHaveProperty('checked', true);
  });

  it('a source removed before the one paying the creation fee: the choice stays with its card', async () => {
    const { user } = setup();
    await toSources(user);
    await addCard(user, { amount: '40', number: '4242424242424242' });
    await screen.findByText(/Visa •••• 4242/);
    await addCard(user, { amount: '40', number: '4111111111111111' });
    await screen.findByText(/Visa •••• 1111/);
    await addCard(user, { number: '4012888888881881' });
    await waitFor(() => expect(screen.getByTestId('remaining-to-fund').textContent).toBe('$0.00'));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await heading('Review and create');
    await user.click(await screen.findByRole('radio', { name: /Visa •••• 1111/ }));

    await user.click(screen.getByRole('button', { name: 'Back' }));
    await heading('Sources');
    await user.click(screen.getByRole('button', { name: /Remove Visa •••• 4242/ }));
    await waitFor(() => expect(screen.queryByText(/Visa •••• 4242/)).toBeNull());
    await addCard(user, { number: '4000056655665556' });
    await waitFor(() => expect(screen.getByTestId('remaining-to-fund').textContent).toBe('$0.00'));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await heading('Review and create');
    await waitFor(() => expect(screen.getByRole('radio', { name: /Visa •••• 1111/ })).toHaveProperty('checked', true));
    expect(screen.getByRole('radio', { name: /Visa •••• 1881/ })).toHaveProperty('checked', false);
  });

  it('a pick whose figures fail to load is not lost: Retry shows it again with its figures', async () => {
    const { user, server } = setup();
    await toReview(user);
    server.failNextQuote();
    await user.click(screen.getByRole('radio', { name: /Visa •••• 4242/ }));
    expect(await screen.findByRole('heading', { name: 'Failed to load the fee breakdown' })).toBeVisible();
    await user.click(screen.getByRole('button', { name: /Retry/ }));
    expect(await screen.findByTestId('quote-card-amount')).toHaveProperty('textContent', '$100.00');
    expect(screen.getByRole('radio', { name: /Visa •••• 4242/ })).toHaveProperty('checked', true);
  });

  it('an address naming a draft it cannot be on any more reopens the nearest step it can', async () => {
    const { user, unmount, server } = setup();
    await toSources(user);
    expect(server.combine().sources).toHaveLength(0);
    unmount();
    // Step 5 typed or kept in the address, but nothing funds the card: Sources it is.
    const page = renderPage(<CreateCardPage />, { path: '/create-card?combine=combine-1&step=5' });
    expect(await heading('Sources')).toBeVisible();
    await waitFor(() => expect(page.router.state.location.search).toBe('?combine=combine-1&step=2'));
  });

  it('a Mastercard number with Visa chosen as provider is refused before any card check (decision 162)', async () => {
    const { user, api } = setup();
    await toSources(user);
    await addCard(user, { number: '5555 5555 5555 4444' });
    const message = 'This card number belongs to Mastercard, not Visa. Choose Mastercard as the provider, or check the number.';
    expect(await screen.findAllByText(message)).not.toHaveLength(0);
    expect(screen.getByLabelText(/^Provider/).getAttribute('aria-invalid')).toBe('true');
    expect(api.bodiesOf('POST', '/api/combines/combine-1/sources')).toEqual([]);
    await user.selectOptions(screen.getByLabelText(/^Provider/), 'mastercard');
    await user.click(screen.getByRole('button', { name: /Add Source/ }));
    expect(await screen.findByText('Mastercard •••• 4444')).toBeVisible();
  });

  it('the source form names each missing field with the spec message', async () => {
    const { user } = setup();
    await toSources(user);
    const add = screen.getByRole('button', { name: /Add Source/ });
    const expectError = async (message: string) => expect(await screen.findAllByText(message)).not.toHaveLength(0);
    await user.click(add);
    await expectError('Please select a payment source type');
    await user.selectOptions(screen.getByLabelText(/^Source type/), 'credit');
    await user.click(add);
    await expectError('Please select a provider');
    await user.selectOptions(screen.getByLabelText(/^Provider/), 'visa');
    await user.click(add);
    await expectError('Please enter a valid amount');
    await user.type(screen.getByLabelText(/^Amount to charge/), '10.123');
    await user.click(add);
    await expectError('Amounts can have at most 2 decimal places.');
    await user.clear(screen.getByLabelText(/^Amount to charge/));
    await user.type(screen.getByLabelText(/^Amount to charge/), '50');
    await fill(user, screen.getByLabelText(/^Card number/), '4242 4242');
    await user.click(add);
    await expectError('Please enter a valid card number');
    expect(screen.getByLabelText(/^Card number/).getAttribute('aria-invalid')).toBe('true');
    await user.clear(screen.getByLabelText(/^Card number/));
    await fill(user, screen.getByLabelText(/^Card number/), '4242424242424242');
    await user.click(add);
    await expectError('Please enter a valid expiry date');
    await user.selectOptions(screen.getByLabelText('Expiry month'), '12');
    await user.selectOptions(screen.getByLabelText('Expiry year'), String(new Date().getFullYear() + 2));
    await user.click(add);
    await expectError('Please enter a valid CVV');
  });

  it('Use as Source with a card holding more than needed proposes what the new card needs, not the whole balance', async () => {
    const server = fakeCombines();
    fakeApi({ 'GET /api/session': { body: { signedIn: true, profile: profileFixture() } }, ...server.routes });
    const { user } = renderPage(<CreateCardPage />, { path: '/create-card?fromCard=card-9&amountCents=115052' });
    expect(await screen.findByText(/You are using one of your PayWeave cards as a source/)).toBeVisible();
    await toSources(user);
    expect((screen.getByLabelText(/^Source type/) as HTMLSelectElement).value).toBe('internal');
    // $100.00 needed: the smallest charge on the card that brings it (1% product fee), not $1,150.52.
    expect((screen.getByLabelText(/^Amount to charge/) as HTMLInputElement).value).toBe('101.01');
  });

  it('a combine completed meanwhile in another tab: the review says so, charges nothing more, and leads on', async () => {
    const server = fakeCombines();
    fakeApi({
      'GET /api/session': { body: { signedIn: true, profile: profileFixture() } },
      ...server.routes,
      'POST /api/combines/combine-1/complete': { status: 409, body: { error: { code: 'already_completed', message: 'This combine is already completed.' } } },
    });
    const { user } = renderPage(<CreateCardPage />, { path: '/create-card' });
    await toReview(user);
    await user.click(screen.getByRole('button', { name: 'Create Virtual Card' }));
    const notice = await screen.findByRole('alert');
    await waitFor(() => expect(notice.textContent).toContain('This card was already created, perhaps in another tab or window. Nothing more was charged.'));
    expect(within(notice).getByRole('link', { name: 'Go to My Cards' }).getAttribute('href')).toBe('/my-cards');
    expect(screen.getByRole('button', { name: 'Create Virtual Card' })).toHaveProperty('disabled', true);
    await user.click(within(notice).getByRole('button', { name: 'Start a new card' }));
    expect(await heading('Amount')).toBeVisible();
  });

  it('a reload while the card is being created says the card was made, instead of an empty wizard (decision 178)', async () => {
    const server = fakeCombines();
    // The server makes the card at once; its answer is held, as a reload cuts the page off from it.
    const complete = server.routes['POST /api/combines/combine-1/complete'] as FakeHandler;
    const held = new Promise<never>(() => {});
    fakeApi({
      'GET /api/session': { body: { signedIn: true, profile: profileFixture() } },
      ...server.routes,
      'POST /api/combines/combine-1/complete': async (request) => {
        await complete(request);
        return held;
      },
    });
    const { user, router, unmount } = renderPage(<CreateCardPage />, { path: '/create-card' });
    await toReview(user);
    await user.click(screen.getByRole('button', { name: 'Create Virtual Card' }));
    await heading('Processing');
    await waitFor(() => expect(router.state.location.search).toBe('?combine=combine-1&step=6'));
    expect(server.completed()).toBe(1);

    const address = `${router.state.location.pathname}${router.state.location.search}`;
    unmount();
    renderPage(<CreateCardPage />, { path: address });
    expect(await heading('Your card was created')).toBeVisible();
    expect(screen.getByText(/Your Visa card ending 4321 was created with \$99\.90 on it\. Nothing more is charged for it\./)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Go to My Cards' }).getAttribute('href')).toBe('/my-cards');
    expect(screen.getByRole('link', { name: 'View details' }).getAttribute('href')).toBe('/history/combine-1');
    expect(screen.queryByRole('button', { name: 'Create Virtual Card' })).toBeNull();
    expect(screen.queryByText('Could not find the saved combine.')).toBeNull();
  });

  it('a double click on Continue starts one draft (step 1), and sends the BNPL one-time card once (step 4)', async () => {
    const { user, api } = setup();
    await heading('Amount');
    await amountStep(user, '100', '0');
    const continueButton = screen.getByRole('button', { name: 'Continue' });
    fireEvent.click(continueButton);
    fireEvent.click(continueButton);
    await heading('Sources');
    expect(api.bodiesOf('POST', '/api/combines')).toHaveLength(1);

    await user.selectOptions(screen.getByLabelText(/^Source type/), 'bnpl');
    await user.selectOptions(screen.getByLabelText(/^Provider/), 'zip');
    await user.click(screen.getByRole('button', { name: 'Charge the exact amount still needed' }));
    await user.click(screen.getByRole('button', { name: /Add Source/ }));
    await waitFor(() => expect(screen.getByTestId('remaining-to-fund').textContent).toBe('$0.00'));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await heading('BNPL Setup');
    const created = screen.getByRole('button', { name: /created the card/ });
    fireEvent.click(created);
    fireEvent.click(created);
    await heading('BNPL Checkout');
    expect(api.bodiesOf('PATCH', '/api/combines/combine-1')).toHaveLength(1);

    await fill(user, screen.getByLabelText(/^Card number/), '4111111111111111');
    await user.type(screen.getByLabelText(/^Expiry/), '12/30');
    await user.type(screen.getByLabelText(/^CVV/), '123');
    const toReviewButton = screen.getByRole('button', { name: /Continue to review/ });
    fireEvent.click(toReviewButton);
    fireEvent.click(toReviewButton);
    await heading('Review and create');
    expect(api.sent.filter((r) => r.method === 'POST' && r.path.endsWith('/bnpl-card'))).toHaveLength(1);
  });

  it('the source form is locked while a card is being authorized, so nothing typed meanwhile is lost', async () => {
    const server = fakeCombines();
    const add = server.routes['POST /api/combines/combine-1/sources'] as FakeHandler;
    let release: () => void = () => {};
    fakeApi({
      'GET /api/session': { body: { signedIn: true, profile: profileFixture() } },
      ...server.routes,
      'POST /api/combines/combine-1/sources': async (request) => {
        await new Promise<void>((resolve) => (release = resolve));
        return add(request);
      },
    });
    const { user } = renderPage(<CreateCardPage />, { path: '/create-card' });
    await toSources(user);
    await addCard(user, { amount: '40' });
    await screen.findByRole('button', { name: /Authorizing/ });
    // Disabled through the fieldset that holds them (jsdom does not carry that into :disabled).
    const locked = (field: HTMLElement) => field.closest('fieldset:disabled') !== null;
    expect(locked(screen.getByLabelText(/^Source type/))).toBe(true);
    expect(locked(screen.getByLabelText(/^Card number/))).toBe(true);
    release();
    expect(await screen.findByText(/Visa •••• 4242/)).toBeVisible();
    expect(locked(screen.getByLabelText(/^Source type/))).toBe(false);
  });

  it('a fast double click on Create Virtual Card sends one create and shows the card it made', async () => {
    const { user, api, server } = setup();
    await toReview(user);
    const create = screen.getByRole('button', { name: 'Create Virtual Card' });
    // Both clicks in one task, as a browser delivers a fast double click: no render in between.
    act(() => {
      create.click();
      create.click();
    });
    expect(await heading('Card Created Successfully')).toBeVisible();
    expect(api.sent.filter((r) => r.path.endsWith('/complete'))).toHaveLength(1);
    expect(server.completed()).toBe(1);
  });

  it('a fast double click on a source’s Remove removes it once, with no refusal for the second click', async () => {
    const { user, api } = setup();
    await toSources(user);
    await addCard(user, { amount: '40' });
    const remove = await screen.findByRole('button', { name: /Remove Visa •••• 4242/ });
    act(() => {
      remove.click();
      remove.click();
    });
    await waitFor(() => expect(screen.queryByText(/Visa •••• 4242/)).toBeNull());
    expect(api.sent.filter((r) => r.method === 'DELETE')).toHaveLength(1);
    expect(screen.queryByText('Payment source not found.')).toBeNull();
  });
});
