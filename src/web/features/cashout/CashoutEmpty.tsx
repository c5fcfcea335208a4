import { ButtonLink } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';

/** No card can be cashed out: where to find or make one. */
export function CashoutEmpty({ compact }: { compact: boolean }) {
  return (
    <EmptyState
      icon="card"
      title="No cards to cash out"
      headingLevel={compact ? 3 : 2}
      actions={
        <>
          <ButtonLink to="/my-cards" variant="secondary">
            Go to My Cards
          </ButtonLink>
          <ButtonLink to="/create-card">Create a Card</ButtonLink>
        </>
      }
    >
      Only cards with a balance that are not frozen can be cashed out.
    </EmptyState>
  );
}
