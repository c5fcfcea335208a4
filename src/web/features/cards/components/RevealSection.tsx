import type { Card } from '../../../../contracts/cards';
import { Button } from '../../../ui/Button';
import { Form } from '../../../ui/Form';
import { Icon } from '../../../ui/Icon';
import { Notice } from '../../../ui/Notice';
import { TextField } from '../../../ui/TextField';
import { PASSKEY_ICON_PATH } from '../../../lib/passkeys';
import { RevealedDetails } from './RevealedDetails';
import { useRevealSection } from './use-reveal-section';

export { REVEAL_VISIBLE_MS } from './use-reveal-section';
export const REVEAL_HIDDEN_NOTE = 'Card details hidden again for your security.';

/**
 * Reveal (docs/rules.md#card-expiry, docs/rules.md#never-logged): asks the server for the full number, expiry and CVV; when the
 * password was entered more than five minutes ago the server says so and this asks for it again
 * (or for a passkey, when the user has one).
 * The details live only in this component's state: closing the modal unmounts it, so they are
 * hidden again whenever the modal reopens. They also hide after 60 seconds and as soon as the
 * tab is hidden (another app, a locked phone), as banking apps do.
 */
export function RevealSection({ card }: { card: Card }) {
  const { details, hide, askPassword, cancelPassword, offerPasskey, problem, autoHidden, form, reveal, reauth, reauthWithPasskey, requestReveal, confirmPassword, confirmWithPasskey, copy } =
    useRevealSection(card);

  if (details) return <RevealedDetails details={details} onCopy={(label, value) => void copy(label, value)} onHide={hide} />;

  return (
    <section className="reveal" aria-label="Reveal card details">
      {askPassword ? (
        <Form form={form} onSubmit={confirmPassword} aria-label="Confirm your password" className="reveal-form">
          <p className="text-small">For your security, enter your password again to see the full card number, expiry and CVV.</p>
          {/* Before the field: a message the field shows when it loses focus cannot move it away. */}
          {offerPasskey && (
            <Button variant="secondary" size="sm" onClick={() => void confirmWithPasskey()} loading={reauthWithPasskey.isPending} loadingText="Waiting for your passkey...">
              <Icon d={PASSKEY_ICON_PATH} size={16} />
              Use a passkey instead
            </Button>
          )}
          <TextField name="password" label="Password" type="password" required autoComplete="current-password" autoFocus />
          <div className="button-row">
            <Button variant="secondary" size="sm" onClick={cancelPassword}>
              Cancel
            </Button>
            <Button type="submit" size="sm" loading={reauth.isPending || reveal.isPending}>
              Confirm and reveal
            </Button>
          </div>
        </Form>
      ) : (
        <Button variant="secondary" size="sm" onClick={() => void requestReveal()} loading={reveal.isPending}>
          <Icon name="lock" size={16} />
          Reveal card details
        </Button>
      )}
      {autoHidden && !askPassword && (
        <p className="text-small text-muted" role="status">
          {REVEAL_HIDDEN_NOTE}
        </p>
      )}
      {problem && (
        <Notice tone="error" role="alert">
          {problem}
        </Notice>
      )}
    </section>
  );
}
