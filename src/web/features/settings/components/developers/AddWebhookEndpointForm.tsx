import { useState } from 'react';
import { z } from 'zod';
import { ApiError, errorMessage } from '../../../../lib/api';
import { Button } from '../../../../ui/Button';
import { Form, useZodForm } from '../../../../ui/Form';
import { Notice } from '../../../../ui/Notice';
import { TextField } from '../../../../ui/TextField';
import { useToast } from '../../../../ui/toast';
import { useCreateWebhookEndpoint, type WebhookEndpointWithSecret } from '../../api/webhooks';

// The server decides which addresses it takes (docs/rules.md#webhook-addresses) and says why on
// the field; here only what needs no server: something that reads as an http(s) URL.
const endpointForm = z.object({
  url: z
    .string()
    .trim()
    .min(1, 'Enter the URL of your receiver.')
    .max(2000, 'That URL is too long (2,000 characters at most).')
    .refine((value) => /^https?:\/\/\S+$/i.test(value), 'Enter a full URL starting with https:// (or http:// in demo mode).'),
});

/** The `message` of the API's field error on `/url`, if the refusal named that field. */
function urlErrorOf(error: unknown): string | null {
  if (!(error instanceof ApiError) || !Array.isArray(error.details)) return null;
  const found = (error.details as unknown[]).find((d): d is { path: string; message: string } => typeof d === 'object' && d !== null && (d as { path?: unknown }).path === '/url' && typeof (d as { message?: unknown }).message === 'string');
  return found?.message ?? null;
}

/** "Add endpoint": the URL, checked by the server; its refusal on the field, the 5-endpoint limit above the button. */
export function AddWebhookEndpointForm({ onAdded }: { onAdded: (endpoint: WebhookEndpointWithSecret) => void }) {
  const create = useCreateWebhookEndpoint();
  const toast = useToast();
  const form = useZodForm(endpointForm, { defaultValues: { url: '' } });
  const [refusal, setRefusal] = useState<string | null>(null);

  async function submit({ url }: { url: string }) {
    setRefusal(null);
    try {
      const added = await create.mutateAsync(url);
      form.reset({ url: '' });
      onAdded(added);
    } catch (error) {
      const onField = urlErrorOf(error);
      if (onField) form.setError('url', { type: 'server', message: onField }, { shouldFocus: true });
      else if (error instanceof ApiError && error.status >= 400 && error.status < 500) setRefusal(error.message);
      else toast.error(errorMessage(error, 'The endpoint could not be added. Please try again.'));
    }
  }

  return (
    <Form form={form} onSubmit={submit} aria-label="Add endpoint" className="webhook-add">
      <TextField
        name="url"
        label="Endpoint URL"
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        placeholder="https://example.com/webhooks/payweave"
        hint="PayWeave posts each of your events here, signed."
        required
      />
      {refusal && (
        <Notice tone="error" role="alert">
          {refusal}
        </Notice>
      )}
      <Button type="submit" loading={create.isPending}>
        Add endpoint
      </Button>
    </Form>
  );
}
