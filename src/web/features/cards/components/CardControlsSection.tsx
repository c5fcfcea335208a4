import { useState } from 'react';
import type { CardControls } from '../../../../contracts/card-controls';
import { spendCategoryLabel } from '../../../../core/spend-controls';
import { errorMessage } from '../../../lib/api';
import { Button } from '../../../ui/Button';
import { Notice } from '../../../ui/Notice';
import { Spinner } from '../../../ui/Spinner';
import { useCardControls } from '../api/card-controls';
import { CardControlsForm } from './CardControlsForm';

function lockText(lock: CardControls['merchantLock']): string {
  if (lock.mode === 'named') return `Locked to ${lock.merchant}`;
  return lock.mode === 'first' ? 'Locks to the first merchant that charges it' : 'Any merchant';
}

function categoriesText(controls: CardControls): string {
  const names = (list: readonly CardControls['blockCategories'][number][]) => list.map(spendCategoryLabel).join(', ');
  if (controls.blockCategories.length > 0) return `Blocked: ${names(controls.blockCategories)}`;
  if (controls.allowOnlyCategories.length > 0) return `Only: ${names(controls.allowOnlyCategories)}`;
  return 'Any category';
}

/** The Controls section of a card's details: what its limits leave now, its lock and categories, and their editor. */
export function CardControlsSection({ cardId }: { cardId: string }) {
  const query = useCardControls(cardId);
  const [editing, setEditing] = useState(false);
  if (query.isPending) return <Spinner label="Loading controls" />;
  if (query.isError) return <Notice tone="error">{errorMessage(query.error, 'The controls could not be loaded.')}</Notice>;
  const { controls, availableText } = query.data;
  if (editing) return <CardControlsForm cardId={cardId} controls={controls} onDone={() => setEditing(false)} />;
  return (
    <div className="card-controls">
      <dl className="card-facts">
        <div>
          <dt>Limits</dt>
          <dd>{availableText ?? 'No spending limits'}</dd>
        </div>
        <div>
          <dt>Merchant</dt>
          <dd>{lockText(controls.merchantLock)}</dd>
        </div>
        <div>
          <dt>Categories</dt>
          <dd>{categoriesText(controls)}</dd>
        </div>
      </dl>
      <Button variant="secondary" size="sm" onClick={() => setEditing(true)}>
        Edit controls
      </Button>
    </div>
  );
}
