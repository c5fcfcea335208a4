import { Button } from '../../../ui/Button';
import { Icon } from '../../../ui/Icon';
import { Notice } from '../../../ui/Notice';

/** What the API answered when it did not add the source: a decline with Try again, or a refusal that names no field. */
export function SourceRefusals({ declined, refused, adding }: { declined: string | null; refused: string | null; adding: boolean }) {
  return (
    <>
      {declined && (
        <Notice tone="error" role="alert" title="Card declined" className="source-declined">
          <p>{declined}</p>
          <Button type="submit" variant="secondary" size="sm" loading={adding} loadingText="Authorizing...">
            <Icon name="refresh" size={16} />
            Try again
          </Button>
        </Notice>
      )}
      {refused && (
        <Notice tone="error" role="alert" className="source-refused">
          <p>{refused}</p>
        </Notice>
      )}
    </>
  );
}

/** Add Source: busy while a card is authorized (the fieldset around it is locked then), off once the card is fully funded. */
export function SourceFormActions({ isCard, adding, fullyFunded }: { isCard: boolean; adding: boolean; fullyFunded: boolean }) {
  return (
    <div className="form-actions">
      <Button type="submit" variant="accent" loading={adding} loadingText={isCard ? 'Authorizing...' : 'Processing...'} disabled={fullyFunded}>
        <Icon name="layers" size={18} />
        Add Source
      </Button>
      {isCard && (
        <p className="text-small text-muted source-form-secure">
          <Icon name="lock" size={16} />
          Your card is pre-authorized now and charged only when you create the card. We keep only its last 4 digits.
        </p>
      )}
    </div>
  );
}

/** Shown above a locked form: nothing more is needed. */
export function FullyFundedNotice() {
  return <Notice tone="success">Your card total is fully funded. Remove a source if you want to change the mix.</Notice>;
}
