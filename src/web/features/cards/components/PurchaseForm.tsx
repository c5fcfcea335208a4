import { useState } from 'react';
import { useSingleFlight } from '../../../lib/use-single-flight';
import { z } from 'zod';
import { CARD_MESSAGES, spendCategory, type Card } from '../../../../contracts/cards';
import { SPEND_CATEGORIES } from '../../../../core/spend-controls';
import { MESSAGES, formatUsd, parseMoneyInput } from '../../../../core/money';
import { ApiError, errorMessage } from '../../../lib/api';
import { Button } from '../../../ui/Button';
import { Form, useZodForm } from '../../../ui/Form';
import { Notice } from '../../../ui/Notice';
import { SelectField } from '../../../ui/SelectField';
import { TextField } from '../../../ui/TextField';
import { useToast } from '../../../ui/toast';
import { newIdempotencyKey, usePurchase } from '../api/cards';

const purchaseForm = z.object({
  merchant: z.string().trim().min(1, CARD_MESSAGES.merchantRequired).max(80, 'Merchant names can be at most 80 characters.'),
  amount: z
    .string()
    .transform((text, ctx) => {
      const parsed = parseMoneyInput(text);
      if (!parsed.ok || parsed.cents <= 0) {
        ctx.addIssue({ code: 'custom', message: parsed.ok ? CARD_MESSAGES.invalidAmount : parsed.reason === 'too_many_decimals' ? MESSAGES.tooManyDecimals : parsed.reason === 'too_large' ? CARD_MESSAGES.maxPurchase : CARD_MESSAGES.invalidAmount });
        return z.NEVER;
      }
      return parsed.cents;
    }),
  // '' is none named: the server decides it as 'other' (docs/rules.md#card-controls).
  category: z.union([z.literal(''), spendCategory]),
});

const CATEGORY_OPTIONS = SPEND_CATEGORIES.map(({ id, label }) => ({ value: id, label }));

type Outcome = { tone: 'success' | 'error'; title: string; text: string };

/**
 * Demo mode's "Simulate a purchase": a merchant charges this card. The server authorises and
 * captures it, or declines with the reason (short balance, frozen, expired, closed, or the card's
 * own controls); declines are recorded and shown in the card's transactions.
 */
export function PurchaseForm({ card }: { card: Card }) {
  const purchase = usePurchase();
  const toast = useToast();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const form = useZodForm(purchaseForm, { defaultValues: { merchant: '', amount: '', category: '' } });
  // One purchase at a time: each submit has its own Idempotency-Key, and a fast double click (or a
  // held Enter) lands before the busy button re-renders, which charged the card twice.
  const submitOnce = useSingleFlight(submit);

  async function submit({ merchant, amount, category }: z.output<typeof purchaseForm>) {
    setOutcome(null);
    try {
      const named = category === '' ? {} : { category };
      const answer = await purchase.mutateAsync({ cardId: card.id, merchant, amountCents: amount, ...named, idempotencyKey: newIdempotencyKey() });
      const text = `Approved: ${formatUsd(amount)} at ${merchant}. Remaining balance ${formatUsd(answer.card.remainingAmountCents)}.`;
      setOutcome({ tone: 'success', title: 'Purchase approved', text });
      toast.success('Purchase approved');
      form.reset({ merchant: '', amount: '', category });
    } catch (error) {
      const text = errorMessage(error, 'The purchase could not be processed. Please try again.');
      setOutcome({ tone: 'error', title: error instanceof ApiError && error.code === 'declined' ? 'Purchase declined' : 'Purchase failed', text });
      toast.error(text);
    }
  }

  return (
    <Form form={form} onSubmit={submitOnce} aria-label="Simulate a purchase" className="purchase-form">
      <p className="text-small text-muted">Demo mode: no real merchant is charged. The card's balance goes down as if it were.</p>
      <div className="form-row">
        <TextField name="merchant" label="Merchant name" required maxLength={80} autoComplete="off" />
        <TextField name="amount" label="Amount" required prefix="$" inputMode="decimal" autoComplete="off" />
        <SelectField name="category" label="Merchant category" options={CATEGORY_OPTIONS} placeholder="Not named (other)" />
      </div>
      <div aria-live="polite">
        {outcome && (
          <Notice tone={outcome.tone} title={outcome.title}>
            {outcome.text}
          </Notice>
        )}
      </div>
      <div className="form-actions">
        <Button type="submit" loading={purchase.isPending}>
          Simulate purchase
        </Button>
      </div>
    </Form>
  );
}
