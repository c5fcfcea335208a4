import type { Passkey } from '../../../../contracts/passkeys';
import { PASSKEY_ICON_PATH } from '../../../lib/passkeys';
import { Badge } from '../../../ui/Badge';
import { Button } from '../../../ui/Button';
import { Icon } from '../../../ui/Icon';
import type { PasskeyDialog } from './use-passkeys-panel';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const formatDate = (iso: string) => dateFormat.format(new Date(iso));

/** One passkey: its name, when it was added and last used, Rename and Remove. */
export function PasskeyItem({ passkey, open }: { passkey: Passkey; open: (next: PasskeyDialog) => void }) {
  return (
    <li className="security-item">
      <Icon d={PASSKEY_ICON_PATH} size={20} className="security-item-icon" />
      <div className="security-item-text">
        <p className="security-item-name">
          {passkey.name} {passkey.backedUp && <Badge tone="info">Synced</Badge>}
        </p>
        <p className="text-small text-muted">
          Added {formatDate(passkey.createdAt)} · {passkey.lastUsedAt ? `Last used ${formatDate(passkey.lastUsedAt)}` : 'Never used'}
        </p>
      </div>
      <div className="security-item-actions">
        <Button variant="ghost" size="sm" onClick={() => open({ kind: 'rename', passkey })} aria-label={`Rename ${passkey.name}`}>
          Rename
        </Button>
        <Button variant="ghost" size="sm" onClick={() => open({ kind: 'remove', passkey })} aria-label={`Remove ${passkey.name}`}>
          Remove
        </Button>
      </div>
    </li>
  );
}
