import { expect, test } from '@playwright/test';
import type { APIResponse, Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { signUp } from './fixtures';
import { BOOST_EARNED_MESSAGE, BOOST_MESSAGES } from '../../src/core/boosts';

// The combine wizard: fees to the cent as docs/rules.md#fee-examples lists them, the spec's forward
// and back rules, the BNPL steps, a declined card, save for later and resume, and the boost
// earned on the third combine; axe on every step. Test card numbers are made up (demo mode).

const VISA = '4242 4242 4242 4242';
const MASTERCARD = '5555555555554444';
const DECLINED = '4000000000009995';
const EXPIRY_YEAR = String(new Date().getFullYear() + 2);

async function expectAxeClean(page: Page, where: string) {
  // Toasts come and go while axe runs; they are checked on their own pages of the kit.
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).exclude('.toast-viewport').analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), `axe on ${where}`).toEqual([]);
}

function stepHeading(page: Page, name: string) {
  return page.getByRole('heading', { level: 2, name, exact: true });
}

async function expectStep(page: Page, name: string, progress: string | null) {
  await expect(stepHeading(page, name)).toBeVisible();
  // Focus moves to the new step's heading.
  await expect(stepHeading(page, name)).toBeFocused();
  if (progress) await expect(page.getByRole('navigation', { name: 'Card creation progress' }).getByText(progress)).toBeVisible();
}

function toast(page: Page, text: string | RegExp) {
  return page.locator('.toast').filter({ hasText: text }).first();
}

async function enterAmount(page: Page, base: string, buffer: string, mode: 'Percent (%)' | 'Dollars ($)' = 'Percent (%)') {
  await page.getByLabel('Purchase amount').fill(base);
  await page.getByLabel(mode).check();
  await page.getByLabel('Tax buffer').fill(buffer);
  await page.getByRole('button', { name: 'Calculate' }).click();
}

type CardSource = { type: 'credit' | 'debit' | 'prepaid'; provider: string; amount?: string; number: string };

async function fillCardSource(page: Page, source: CardSource) {
  await page.getByLabel('Source type').selectOption(source.type);
  await page.getByLabel('Provider').selectOption(source.provider);
  if (source.amount !== undefined) await page.getByLabel('Amount to charge').fill(source.amount);
  await page.getByLabel('Card number').fill(source.number);
  await page.getByLabel('Expiry month').selectOption('12');
  await page.getByLabel('Expiry year').selectOption(EXPIRY_YEAR);
  await page.getByLabel('CVV').fill('123');
}

async function addBnplSource(page: Page, provider: string, amount: string) {
  await page.getByLabel('Source type').selectOption('bnpl');
  await page.getByLabel('Provider').selectOption(provider);
  await page.getByLabel('Amount to charge').fill(amount);
  await page.getByRole('button', { name: 'Add Source' }).click();
}

function sourceItem(page: Page, name: string) {
  return page.locator('.source-item').filter({ hasText: name });
}

/** Reads a "label / amount" row of a definition list inside `scope`. */
async function expectFigure(scope: ReturnType<Page['locator']>, label: string, amount: string) {
  await expect(scope.locator('div').filter({ has: scope.page().getByText(label, { exact: true }) }).locator('dd').first()).toHaveText(amount);
}

test.describe('create-card wizard', () => {
  // Every step is also checked with axe, which takes a few seconds a run.
  test.describe.configure({ timeout: 120_000 });

  test('a Free user combines two card sources with a 10% buffer; every fee matches DECISIONS to the cent', async ({ page, baseURL }) => {
    await signUp(page, { label: 'wizard', origin: baseURL ?? '' });
    await page.goto('/create-card');
    await expect(stepHeading(page, 'Amount')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Card creation progress' }).locator('[aria-current="step"]')).toContainText('Amount');
    await expectAxeClean(page, 'step 1');

    // Continue waits for Calculate; editing any input resets it.
    const continueButton = page.getByRole('button', { name: 'Continue', exact: true });
    await expect(continueButton).toBeDisabled();
    await page.getByLabel('Purchase amount').fill('50a');
    await page.getByRole('button', { name: 'Calculate' }).click();
    await expect(page.getByText('Both fields must contain only numbers or a decimal point.')).toBeVisible();
    await expect(continueButton).toBeDisabled();
    await enterAmount(page, '500', '10');
    await expect(page.getByTestId('combined-total')).toHaveText('$550.00');
    await expect(continueButton).toBeEnabled();
    await page.getByLabel('Purchase amount').fill('500.00');
    await expect(continueButton).toBeDisabled();
    await page.getByRole('button', { name: 'Calculate' }).click();
    await expect(page.getByTestId('combined-total')).toHaveText('$550.00');
    await continueButton.click();

    await expectStep(page, 'Sources', 'Step 2 of 6');
    await expect(page.getByText('Please add at least one payment source')).toBeVisible();
    await expect(continueButton).toBeDisabled();
    await expectAxeClean(page, 'step 2 (empty)');

    // $300.00 from a card: processor $9.00, product $3.00, net $288.00.
    await fillCardSource(page, { type: 'credit', provider: 'visa', amount: '300', number: VISA });
    await page.getByRole('button', { name: 'Add Source' }).click();
    const visa = sourceItem(page, 'Visa •••• 4242');
    await expect(visa).toBeVisible();
    await expectFigure(visa, 'Amount charged', '$300.00');
    await expectFigure(visa, 'Processor fee', '−$9.00');
    await expectFigure(visa, 'Product fee', '−$3.00');
    await expectFigure(visa, 'Reaches your card', '$288.00');
    await expect(page.getByTestId('remaining-to-fund')).toHaveText('$262.00');
    await expect(page.getByText('The payment sources after fees only add up to $288.00 (needed: $550.00). Please add more.')).toBeVisible();
    await expect(continueButton).toBeDisabled();

    // One click fills the smallest charge that covers the rest: $272.95 nets exactly $262.00.
    await page.getByLabel('Source type').selectOption('debit');
    await page.getByRole('button', { name: 'Charge the exact amount still needed' }).click();
    await expect(page.getByLabel('Amount to charge')).toHaveValue('272.95');
    await fillCardSource(page, { type: 'debit', provider: 'mastercard', number: MASTERCARD });
    await page.getByRole('button', { name: 'Add Source' }).click();
    const mastercard = sourceItem(page, 'Mastercard •••• 4444');
    await expectFigure(mastercard, 'Processor fee', '−$8.22');
    await expectFigure(mastercard, 'Product fee', '−$2.73');
    await expectFigure(mastercard, 'Reaches your card', '$262.00');
    await expect(page.getByTestId('remaining-to-fund')).toHaveText('$0.00');
    await expect(page.getByRole('button', { name: 'Add Source' })).toBeDisabled();
    await expect(continueButton).toBeEnabled();
    await expectAxeClean(page, 'step 2 (funded)');
    await continueButton.click();

    // Without BNPL there is one review, step 5, which creates the card (decision 052).
    await expectStep(page, 'Review and create', 'Step 5 of 6');
    await expect(page.getByTestId('quote-product-fee')).toHaveText('$5.73');
    await expect(page.getByTestId('quote-processor-fee')).toHaveText('$17.22');
    await expect(page.getByTestId('quote-total-charged')).toHaveText('$572.95');
    await expect(page.getByTestId('quote-card-amount')).toHaveText('$549.90');
    await expectAxeClean(page, 'step 5 (review)');

    // No boost yet: ticking the box warns and leaves it unticked.
    await page.getByLabel('Use a boost to waive the product fee').click();
    await expect(toast(page, BOOST_MESSAGES.noneAvailable)).toBeVisible();
    await expect(page.getByLabel('Use a boost to waive the product fee')).not.toBeChecked();

    // The creation fee on a source: added to its charge, the card keeps the full $550.00.
    await page.getByRole('radio', { name: /Visa •••• 4242/ }).check();
    await expect(page.getByTestId('quote-card-amount')).toHaveText('$550.00');
    await expect(page.getByTestId('quote-total-charged')).toHaveText('$573.05');
    await page.getByRole('radio', { name: /The new card/ }).check();
    await expect(page.getByTestId('quote-card-amount')).toHaveText('$549.90');
    await page.getByRole('radio', { name: /Single-use/ }).check();
    await expect(page.getByTestId('quote-card-amount')).toHaveText('$549.90');
    await page.getByRole('button', { name: 'Create Virtual Card' }).click();

    await expectStep(page, 'Card Created Successfully', null);
    await expect(page.getByTestId('card-amount')).toHaveText('$549.90');
    await expect(page.getByTestId('card-masked-number')).toHaveText(/^•••• •••• •••• \d{4}$/);
    await expect(page.getByText('Single-use', { exact: true })).toBeVisible();
    await expect(page.getByText('Promo Applied Successfully!')).toHaveCount(0);
    await expect(page.getByRole('link', { name: /My Cards/ }).last()).toBeVisible();
    await expectAxeClean(page, 'step 7');
  });

  test('back navigation without BNPL: the one review (5) → 2, 2 → 1 with the amount kept', async ({ page, baseURL }) => {
    await signUp(page, { label: 'wizard', origin: baseURL ?? '' });
    await page.goto('/create-card');
    await enterAmount(page, '100', '0', 'Dollars ($)');
    await expect(page.getByTestId('combined-total')).toHaveText('$100.00');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expectStep(page, 'Sources', 'Step 2 of 6');
    await page.getByLabel('Source type').selectOption('credit');
    await page.getByRole('button', { name: 'Charge the exact amount still needed' }).click();
    await expect(page.getByLabel('Amount to charge')).toHaveValue('104.37');
    await fillCardSource(page, { type: 'credit', provider: 'visa', number: VISA });
    await page.getByRole('button', { name: 'Add Source' }).click();
    await expect(page.getByTestId('remaining-to-fund')).toHaveText('$0.00');

    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expectStep(page, 'Review and create', 'Step 5 of 6');
    await page.getByRole('button', { name: 'Back' }).click();
    await expectStep(page, 'Sources', 'Step 2 of 6');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expectStep(page, 'Review and create', 'Step 5 of 6');
    await page.getByRole('button', { name: 'Back' }).click();
    await expectStep(page, 'Sources', 'Step 2 of 6');
    await page.getByRole('button', { name: 'Back' }).click();
    await expectStep(page, 'Amount', 'Step 1 of 6');
    await expect(page.getByLabel('Purchase amount')).toHaveValue('100');
    await expect(page.getByTestId('combined-total')).toHaveText('$100.00');
    await expect(page.getByRole('button', { name: 'Continue', exact: true })).toBeEnabled();
    await expect(page.getByRole('button', { name: 'Back' })).toHaveCount(0);
  });

  test('a reload reopens the draft: Sources with its source and what is left to fund, then the review with its choices (decision 160)', async ({ page, baseURL }) => {
    await signUp(page, { label: 'wizard', origin: baseURL ?? '' });
    await page.goto('/create-card');
    await enterAmount(page, '200', '0', 'Dollars ($)');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expectStep(page, 'Sources', 'Step 2 of 6');
    // $100.00 from a card: processor $3.20, product $1.00, net $95.80 of the $200.00.
    await fillCardSource(page, { type: 'credit', provider: 'visa', amount: '100', number: VISA });
    await page.getByRole('button', { name: 'Add Source' }).click();
    await expectFigure(sourceItem(page, 'Visa •••• 4242'), 'Reaches your card', '$95.80');
    await expect(page.getByTestId('remaining-to-fund')).toHaveText('$104.20');
    await expect(page).toHaveURL(/\/create-card\?combine=[^&]+&step=2$/);
    const draftAddress = page.url();

    await page.reload();
    await expect(stepHeading(page, 'Sources')).toBeVisible();
    await expect(page).toHaveURL(draftAddress);
    await expect(sourceItem(page, 'Visa •••• 4242')).toHaveCount(1);
    await expectFigure(sourceItem(page, 'Visa •••• 4242'), 'Reaches your card', '$95.80');
    await expect(page.getByTestId('remaining-to-fund')).toHaveText('$104.20');

    // The same draft goes on: the rest from a second card, then the review.
    await page.getByLabel('Source type').selectOption('debit');
    await page.getByRole('button', { name: 'Charge the exact amount still needed' }).click();
    await fillCardSource(page, { type: 'debit', provider: 'mastercard', number: MASTERCARD });
    await page.getByRole('button', { name: 'Add Source' }).click();
    await expect(page.getByTestId('remaining-to-fund')).toHaveText('$0.00');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expectStep(page, 'Review and create', 'Step 5 of 6');
    await expect(page.getByTestId('quote-card-amount')).toHaveText('$199.90');

    await page.reload();
    await expect(stepHeading(page, 'Review and create')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Card creation progress' }).getByText('Step 5 of 6')).toBeVisible();
    await expect(page.getByTestId('quote-card-amount')).toHaveText('$199.90');
    await expect(page.locator('.breakdown-sources li').filter({ hasText: 'Visa •••• 4242' })).toContainText('$100.00');
    await expect(page.getByRole('button', { name: 'Create Virtual Card' })).toBeEnabled();

    // The review's choices are kept with the draft: picked, reloaded, still picked.
    await page.getByRole('radio', { name: /Single-use/ }).check();
    await page.getByRole('radio', { name: /Visa •••• 4242/ }).check();
    await expect(page.getByTestId('quote-card-amount')).toHaveText('$200.00');
    await page.reload();
    await expect(stepHeading(page, 'Review and create')).toBeVisible();
    await expect(page.getByRole('radio', { name: /Single-use/ })).toBeChecked();
    await expect(page.getByRole('radio', { name: /Visa •••• 4242/ })).toBeChecked();
    await expect(page.getByTestId('quote-card-amount')).toHaveText('$200.00');
    await page.getByRole('button', { name: 'Create Virtual Card' }).click();
    await expectStep(page, 'Card Created Successfully', null);
    await expect(page.getByTestId('card-amount')).toHaveText('$200.00');
    await expect(page.getByText('Single-use', { exact: true })).toBeVisible();
  });

  test('a BNPL source goes through setup (3) and checkout (4) with the exact one-time card, and Back follows the BNPL rules', async ({ page, baseURL }) => {
    await signUp(page, { label: 'wizard', origin: baseURL ?? '' });
    await page.goto('/create-card');
    await enterAmount(page, '300', '10');
    await expect(page.getByTestId('combined-total')).toHaveText('$330.00');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expectStep(page, 'Sources', 'Step 2 of 6');

    // Klarna $150.00: processor $4.65, product $1.50, net $143.85; max $15.00, actual $5.25, rebate $9.75.
    await addBnplSource(page, 'klarna', '150.00');
    const klarna = sourceItem(page, 'Klarna (BNPL)');
    await expectFigure(klarna, 'Processor fee', '−$4.65');
    await expectFigure(klarna, 'Product fee', '−$1.50');
    await expectFigure(klarna, 'Reaches your card', '$143.85');
    await expectFigure(klarna, 'BNPL fee (max, held)', '$15.00');
    await expectFigure(klarna, 'Expected BNPL fee', '$5.25');
    await expectFigure(klarna, 'Expected rebate', '$9.75');
    await expectFigure(klarna, 'One-time card amount', '$165.00');
    await expect(page.getByTestId('remaining-to-fund')).toHaveText('$186.15');
    await page.getByLabel('Source type').selectOption('credit');
    await page.getByRole('button', { name: 'Charge the exact amount still needed' }).click();
    await expect(page.getByLabel('Amount to charge')).toHaveValue('194.02');
    await fillCardSource(page, { type: 'credit', provider: 'visa', number: VISA });
    await page.getByRole('button', { name: 'Add Source' }).click();
    await expect(page.getByTestId('remaining-to-fund')).toHaveText('$0.00');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();

    await expectStep(page, 'BNPL Setup', 'Step 3 of 6');
    await expect(page.getByTestId('one-time-card-amount')).toHaveText('$165.00');
    await expect(page.getByText('pay.payweave.example', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save for Later' })).toBeVisible();
    await expectAxeClean(page, 'step 3');
    await page.getByRole('button', { name: 'Back' }).click();
    await expectStep(page, 'Sources', 'Step 2 of 6');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expectStep(page, 'BNPL Setup', 'Step 3 of 6');
    await page.getByRole('button', { name: /created the card/ }).click();

    await expectStep(page, 'BNPL Checkout', 'Step 4 of 6');
    await expect(page.getByRole('button', { name: 'Save for Later' })).toBeVisible();
    await expectAxeClean(page, 'step 4 (BNPL checkout)');
    const submit = page.getByRole('button', { name: 'Continue to review' });
    await submit.click();
    await expect(toast(page, 'Please enter a valid card number.')).toBeVisible();
    await page.getByLabel('Card number').fill('4111 1111 1111 1111');
    await page.getByLabel('Expiry (MM/YY)').fill('13/30');
    await submit.click();
    await expect(toast(page, 'Please enter expiry as MM/YY.')).toBeVisible();
    await page.getByLabel('Expiry (MM/YY)').fill('12/30');
    await page.getByLabel('CVV').fill('12');
    await submit.click();
    await expect(toast(page, 'Please enter a valid CVV.')).toBeVisible();

    // Back from 4 with BNPL goes to 3.
    await page.getByRole('button', { name: 'Back' }).click();
    await expectStep(page, 'BNPL Setup', 'Step 3 of 6');
    await page.getByRole('button', { name: /created the card/ }).click();
    await expectStep(page, 'BNPL Checkout', 'Step 4 of 6');
    await page.getByLabel('Card number').fill('4111 1111 1111 1111');
    await page.getByLabel('Expiry (MM/YY)').fill('12/30');
    await page.getByLabel('CVV').fill('123');
    await submit.click();

    await expectStep(page, 'Review and create', 'Step 5 of 6');
    await expect(page.getByText('$15.00 held; expected rebate $9.75')).toBeVisible();
    await expect(page.locator('.breakdown-sources li').filter({ hasText: 'Klarna (BNPL)' })).toContainText('$165.00');
    // Card amount: $143.85 + $186.15 - $0.10 creation fee.
    await expect(page.getByTestId('quote-card-amount')).toHaveText('$329.90');
    await expectAxeClean(page, 'step 5 (BNPL)');

    // Back from the review goes to 2; forward again skips the finished BNPL steps: one review.
    await page.getByRole('button', { name: 'Back' }).click();
    await expectStep(page, 'Sources', 'Step 2 of 6');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expectStep(page, 'Review and create', 'Step 5 of 6');
    await page.getByRole('button', { name: 'Create Virtual Card' }).click();
    await expectStep(page, 'Card Created Successfully', null);
    await expect(page.getByTestId('card-amount')).toHaveText('$329.90');
  });

  test('add-source checks show the spec messages, and the decline test card shows the processor’s refusal', async ({ page, baseURL }) => {
    await signUp(page, { label: 'wizard', origin: baseURL ?? '' });
    await page.goto('/create-card');
    await enterAmount(page, '200', '10');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expectStep(page, 'Sources', 'Step 2 of 6');

    const add = page.getByRole('button', { name: 'Add Source' });
    await add.click();
    await expect(toast(page, 'Please select a payment source type')).toBeVisible();
    await page.getByLabel('Source type').selectOption('credit');
    await add.click();
    await expect(toast(page, 'Please select a provider')).toBeVisible();
    await page.getByLabel('Provider').selectOption('visa');
    await add.click();
    await expect(toast(page, 'Please enter a valid amount')).toBeVisible();
    await page.getByLabel('Amount to charge').fill('100');
    await page.getByLabel('Card number').fill('4242 4242');
    await add.click();
    await expect(toast(page, 'Please enter a valid card number')).toBeVisible();
    await expect(page.getByLabel('Card number')).toHaveAttribute('aria-invalid', 'true');
    await page.getByLabel('Card number').fill(VISA);
    await add.click();
    await expect(toast(page, 'Please enter a valid expiry date')).toBeVisible();
    await page.getByLabel('Expiry month').selectOption('12');
    await page.getByLabel('Expiry year').selectOption(EXPIRY_YEAR);
    await add.click();
    await expect(toast(page, 'Please enter a valid CVV')).toBeVisible();

    await fillCardSource(page, { type: 'credit', provider: 'visa', amount: '100', number: DECLINED });
    await add.click();
    // A decline says what happened beside the form, keeps what was typed and offers Try again.
    const declined = page.getByRole('alert').filter({ hasText: 'Card declined' });
    // The text of docs/rules.md#messages, as the server answers it.
    await expect(declined.locator('p')).toHaveText('Insufficient funds for pre-authorization');
    await expect(page.getByLabel('Card number')).toHaveValue('4000 0000 0000 9995');
    await expect(page.getByLabel('Amount to charge')).toHaveValue('100');
    await declined.getByRole('button', { name: 'Try again' }).click();
    await expect(declined).toContainText('Insufficient funds for pre-authorization');
    await expect(page.locator('.source-item')).toHaveCount(0);
    await expect(page.getByTestId('remaining-to-fund')).toHaveText('$220.00');
  });

  test('save for later on a BNPL step, resume on the saved step with the sources intact, and finish', async ({ page, baseURL }) => {
    await signUp(page, { label: 'wizard', origin: baseURL ?? '' });
    await page.goto('/resume-combine');
    await expect(page.getByRole('heading', { name: 'No saved combines' })).toBeVisible();
    await expectAxeClean(page, '/resume-combine (empty)');

    await page.getByRole('link', { name: 'Create a Card' }).click();
    await enterAmount(page, '250', '20', 'Dollars ($)');
    await expect(page.getByTestId('combined-total')).toHaveText('$270.00');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await addBnplSource(page, 'affirm', '100.00');
    await expect(sourceItem(page, 'Affirm (BNPL)')).toBeVisible();
    await page.getByLabel('Source type').selectOption('prepaid');
    await page.getByRole('button', { name: 'Charge the exact amount still needed' }).click();
    await fillCardSource(page, { type: 'prepaid', provider: 'mastercard', number: MASTERCARD });
    await page.getByRole('button', { name: 'Add Source' }).click();
    await expect(page.getByTestId('remaining-to-fund')).toHaveText('$0.00');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expectStep(page, 'BNPL Setup', 'Step 3 of 6');
    await page.getByRole('button', { name: /created the card/ }).click();
    await expectStep(page, 'BNPL Checkout', 'Step 4 of 6');

    await page.getByRole('button', { name: 'Save for Later' }).click();
    await expect(toast(page, 'Progress saved! You can resume later from your dashboard.')).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard$/);

    await page.goto('/resume-combine');
    const draft = page.locator('.draft-item').filter({ hasText: '$270.00' });
    await expect(draft).toContainText('2 sources');
    await expect(draft).toContainText('Step 4 of 6: BNPL Checkout');
    // Decision 163: a draft is kept 7 days from its start; the list says until when.
    await expect(draft.getByText('Kept until')).toBeVisible();
    await expectAxeClean(page, '/resume-combine');
    await draft.getByRole('button', { name: /Continue Combine/ }).click();
    await expect(toast(page, 'Redirecting to continue your combine...')).toBeVisible();
    await expect(page).toHaveURL(/\/create-card\?resume=/);
    await expect(stepHeading(page, 'BNPL Checkout')).toBeVisible();

    // The sources came back from the server (tokens, not numbers): Back (4 → 3 → 2) shows them.
    await page.getByRole('button', { name: 'Back' }).click();
    await expectStep(page, 'BNPL Setup', 'Step 3 of 6');
    await page.getByRole('button', { name: 'Back' }).click();
    await expectStep(page, 'Sources', 'Step 2 of 6');
    await expect(sourceItem(page, 'Affirm (BNPL)')).toBeVisible();
    await expect(sourceItem(page, 'Mastercard •••• 4444')).toBeVisible();
    await expect(page.getByTestId('remaining-to-fund')).toHaveText('$0.00');
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page.getByLabel('Purchase amount')).toHaveValue('250');
    await expect(page.getByLabel('Tax buffer')).toHaveValue('20');
    await expect(page.getByLabel('Dollars ($)')).toBeChecked();
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expectStep(page, 'Sources', 'Step 2 of 6');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    // The setup step was done before saving, so Sources leads straight to the checkout.
    await expectStep(page, 'BNPL Checkout', 'Step 4 of 6');
    await page.getByLabel('Card number').fill('4111111111111111');
    await page.getByLabel('Expiry (MM/YY)').fill('1130');
    await expect(page.getByLabel('Expiry (MM/YY)')).toHaveValue('11/30');
    await page.getByLabel('CVV').fill('456');
    await page.getByRole('button', { name: 'Continue to review' }).click();
    await expectStep(page, 'Review and create', 'Step 5 of 6');
    await page.getByRole('button', { name: 'Create Virtual Card' }).click();
    await expectStep(page, 'Card Created Successfully', null);
    await expect(page.getByTestId('card-amount')).toHaveText('$269.90');

    await page.goto('/resume-combine');
    await expect(page.getByRole('heading', { name: 'No saved combines' })).toBeVisible();
  });

  test('a saved combine can be deleted after confirming; a missing one cannot be resumed', async ({ page, baseURL }) => {
    await signUp(page, { label: 'wizard', origin: baseURL ?? '' });
    await page.goto('/create-card');
    await enterAmount(page, '80', '10');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await addBnplSource(page, 'zip', '92.00');
    await expect(page.getByTestId('remaining-to-fund')).toHaveText('$0.00');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expectStep(page, 'BNPL Setup', 'Step 3 of 6');
    await page.getByRole('button', { name: 'Save for Later' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    await page.goto('/resume-combine');
    const draft = page.locator('.draft-item').filter({ hasText: '$88.00' });
    await expect(draft).toContainText('Step 3 of 6: BNPL Setup');
    await draft.getByRole('button', { name: /Delete/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this saved combine?' });
    await expect(dialog).toBeVisible();
    await expectAxeClean(page, 'delete confirmation');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(draft).toBeVisible();
    await draft.getByRole('button', { name: /Delete/ }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, 'Combine deleted successfully')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No saved combines' })).toBeVisible();

    await page.goto('/create-card?resume=00000000-0000-4000-8000-000000000000');
    await expect(page.getByRole('heading', { name: 'Could not find the saved combine.' })).toBeVisible();
  });

  test('a failed load of saved combines shows the error and a retry, never sample data', async ({ page, baseURL }) => {
    await signUp(page, { label: 'wizard', origin: baseURL ?? '' });
    let failing = true;
    await page.route((url) => url.pathname === '/api/combines' && url.searchParams.get('status') === 'incomplete', (route) =>
      failing ? route.fulfill({ status: 503, json: { error: { code: 'unavailable', message: 'Service unavailable.' } } }) : route.fallback(),
    );
    await page.goto('/resume-combine');
    await expect(page.getByRole('heading', { name: 'Failed to load saved combines' })).toBeVisible();
    await expect(page.getByText('Service unavailable.')).toBeVisible();
    failing = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('heading', { name: 'No saved combines' })).toBeVisible();
  });

  test('the third combine, funded partly from a PayWeave card (Use as Source), earns a boost; the monthly limit is then announced', async ({ page, baseURL }) => {
    await signUp(page, { label: 'wizard', origin: baseURL ?? '' });
    // Two combines through the API (the wizard's own calls), the third through the screens.
    for (let i = 0; i < 2; i += 1) await completeCombineViaApi(page, baseURL);
    const before = await ok(await page.request.get('/api/me'));
    expect(before.combineTotal).toBe(2);
    expect(before.boostsAvailable).toBe(0);
    const { cards } = await ok(await page.request.get('/api/cards?status=active'));
    const reused = cards[0] as { id: string; last4: string; remainingAmountCents: number };
    expect(reused.remainingAmountCents).toBe(9_990);

    // 'Use as Source' on My Cards opens the wizard with that card preselected.
    await page.goto(`/create-card?fromCard=${reused.id}&amountCents=${reused.remainingAmountCents}`);
    await expect(page.getByText('You are using one of your PayWeave cards as a source.')).toBeVisible();
    await enterAmount(page, '100', '0', 'Dollars ($)');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expectStep(page, 'Sources', 'Step 2 of 6');
    await expect(page.getByLabel('Source type')).toHaveValue('internal');
    await expect(page.getByRole('combobox', { name: 'Card', exact: true })).toHaveValue(reused.id);
    await expect(page.getByLabel('Amount to charge')).toHaveValue('99.90');
    await page.getByRole('button', { name: 'Add Source' }).click();
    const internal = sourceItem(page, `PayWeave card •••• ${reused.last4}`);
    await expectFigure(internal, 'Processor fee', '−$0.00');
    await expectFigure(internal, 'Product fee', '−$1.00');
    await expectFigure(internal, 'Reaches your card', '$98.90');
    await expect(page.getByTestId('remaining-to-fund')).toHaveText('$1.10');
    await page.getByLabel('Source type').selectOption('credit');
    await page.getByRole('button', { name: 'Charge the exact amount still needed' }).click();
    await expect(page.getByLabel('Amount to charge')).toHaveValue('1.45');
    await fillCardSource(page, { type: 'credit', provider: 'visa', number: VISA });
    await page.getByRole('button', { name: 'Add Source' }).click();
    await expect(page.getByTestId('remaining-to-fund')).toHaveText('$0.00');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expectStep(page, 'Review and create', 'Step 5 of 6');
    await page.getByRole('button', { name: 'Create Virtual Card' }).click();
    await expectStep(page, 'Card Created Successfully', null);
    await expect(toast(page, BOOST_EARNED_MESSAGE)).toBeVisible();
    const after = await ok(await page.request.get('/api/me'));
    expect(after.boostsAvailable).toBe(1);

    // Free allows 3 combines a month: the next one is warned about before any card is entered.
    await page.getByRole('button', { name: 'Create another card' }).click();
    await expectStep(page, 'Amount', 'Step 1 of 6');
    await expect(page.getByText('You have reached your monthly limit of 3 combines on the Free plan. Upgrade for more.')).toBeVisible();
    // ...and nothing starts: Continue stays disabled even with a calculated amount.
    await enterAmount(page, '50', '0', 'Dollars ($)');
    await expect(page.getByRole('button', { name: 'Continue', exact: true })).toBeDisabled();
  });

  test('Create keeps its Idempotency-Key across a retry, and a changed quote charges nothing', async ({ page, baseURL }) => {
    await signUp(page, { label: 'wizard', origin: baseURL ?? '' });
    let lastQuote: Record<string, unknown> | null = null;
    page.on('response', async (response) => {
      if (response.url().endsWith('/quote') && response.ok()) lastQuote = (await response.json()) as Record<string, unknown>;
    });
    await page.goto('/create-card');
    await enterAmount(page, '100', '0', 'Dollars ($)');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await page.getByLabel('Source type').selectOption('credit');
    await page.getByRole('button', { name: 'Charge the exact amount still needed' }).click();
    await fillCardSource(page, { type: 'credit', provider: 'visa', number: VISA });
    await page.getByRole('button', { name: 'Add Source' }).click();
    await expect(page.getByTestId('remaining-to-fund')).toHaveText('$0.00');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expectStep(page, 'Review and create', 'Step 5 of 6');
    await expect(page.getByTestId('quote-card-amount')).toHaveText('$99.90');

    const keys: string[] = [];
    let mode: 'network_failure' | 'changed' | 'server' = 'network_failure';
    await page.route(
      (url) => url.pathname.endsWith('/complete'),
      async (route) => {
        keys.push(route.request().headers()['idempotency-key'] ?? '');
        if (mode === 'network_failure') return route.abort('failed');
        if (mode === 'changed') {
          return route.fulfill({
            status: 409,
            json: { error: { code: 'quote_changed', message: 'The figures changed.', details: { ...lastQuote, cardAmountCents: 9_800 } } },
          });
        }
        return route.fallback();
      },
    );
    const create = page.getByRole('button', { name: 'Create Virtual Card' });

    await create.click();
    await expect(toast(page, 'Failed to create virtual card')).toBeVisible();
    await expect(stepHeading(page, 'Review and create')).toBeVisible();

    // The same request again is a retry of the same attempt: same key.
    mode = 'changed';
    await create.click();
    await expect(page.getByText('The figures changed, so nothing was charged')).toBeVisible();
    await expect(page.getByTestId('quote-card-amount')).toHaveText('$98.00');
    expect(keys[1]).toBe(keys[0]);

    // Other figures make a new attempt: a new key. The server, seeing figures that are not its
    // own, refuses with its quote and charges nothing; the page then shows the real figures.
    mode = 'server';
    await create.click();
    await expect(page.getByTestId('quote-card-amount')).toHaveText('$99.90');
    expect(keys[2]).not.toBe(keys[0]);
    await create.click();
    await expectStep(page, 'Card Created Successfully', null);
    expect(keys[3]).not.toBe(keys[2]);
    expect(new Set(keys.slice(2)).size).toBe(2);
    const { cards } = await ok(await page.request.get('/api/cards'));
    expect(cards).toHaveLength(1);
  });

  test('the wizard fits a 375 px phone without sideways scrolling', async ({ page, baseURL }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await signUp(page, { label: 'wizard', origin: baseURL ?? '' });
    await page.goto('/create-card');
    // A total near the $50,000.00 maximum: the widest figures the funding summary shows.
    await enterAmount(page, '45000', '10');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expectStep(page, 'Sources', 'Step 2 of 6');
    // Each figure stays whole inside the summary box, and clear of its neighbours.
    const figures = await page.locator('.funding-figures dd').evaluateAll((values) =>
      values.map((value) => {
        const box = value.getBoundingClientRect();
        const summary = value.closest('.funding-summary')!.getBoundingClientRect();
        return { text: value.textContent, cut: value.scrollWidth > value.clientWidth, outside: box.right > summary.right || box.left < summary.left, box: { left: box.left, right: box.right, top: box.top, bottom: box.bottom } };
      }),
    );
    expect(figures.map((f) => f.text)).toEqual(['$49,500.00', '$0.00', '$49,500.00']);
    expect(figures.filter((f) => f.cut || f.outside).map((f) => f.text)).toEqual([]);
    const overlapping = figures.flatMap((a, i) =>
      figures.slice(i + 1).filter((b) => a.box.left < b.box.right && b.box.left < a.box.right && a.box.top < b.box.bottom && b.box.top < a.box.bottom).map((b) => `${a.text} / ${b.text}`),
    );
    expect(overlapping).toEqual([]);
    await fillCardSource(page, { type: 'credit', provider: 'visa', amount: '300', number: VISA });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAxeClean(page, 'step 2 on a phone');
  });
});

async function ok(response: APIResponse) {
  expect(response.ok(), `${response.url()}: ${response.status()} ${await response.text()}`).toBe(true);
  return response.json();
}

/** A whole combine through the API the wizard uses: $100.00 from one card, created at once. */
async function completeCombineViaApi(page: Page, baseURL: string | undefined) {
  const headers = { origin: baseURL ?? '' };
  const combine = await ok(await page.request.post('/api/combines', { headers, data: { baseInput: '100', bufferInput: '0', bufferMode: 'dollars' } }));
  const withSource = await ok(
    await page.request.post(`/api/combines/${combine.id}/sources`, {
      headers,
      data: {
        type: 'credit',
        provider: 'visa',
        chargeCents: combine.funding.suggestedChargeCents.card,
        cardNumber: '4242424242424242',
        expMonth: 12,
        expYear: Number(EXPIRY_YEAR),
        cvv: '123',
      },
    }),
  );
  expect(withSource.funding.remainingToFundCents).toBe(0);
  const choices = { useBoost: false, creationFeeSourceIdx: -1, cardType: 'general' };
  const quote = await ok(await page.request.post(`/api/combines/${combine.id}/quote`, { headers, data: choices }));
  await ok(
    await page.request.post(`/api/combines/${combine.id}/complete`, {
      headers: { ...headers, 'idempotency-key': crypto.randomUUID() },
      data: {
        ...choices,
        expected: { cardAmountCents: quote.cardAmountCents, totalChargedCents: quote.totalChargedCents, productFeeCents: quote.productFeeCents },
      },
    }),
  );
}
