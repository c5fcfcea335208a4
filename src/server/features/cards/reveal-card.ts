// POST /api/cards/:id/reveal: the one answer that carries a card's full number and CVV
// (docs/rules.md#cards, docs/rules.md#sessions). It needs the password entered in this session within the last five
// minutes (sign-in or POST /api/auth/reauthenticate), and every reveal is written to the audit
// log before the secrets are returned.
import type { CardReveal } from '../../../contracts/cards';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { audit } from '../../lib/audit';
import { decryptCardSecret } from '../../lib/card-crypto';
import { loadOwnedCard } from './card-view';

export const REVEAL_REAUTH_WINDOW_MS = 5 * 60 * 1000;

export async function revealCard(
  deps: { db: Db; config: Pick<Config, 'cardDataKey'>; now(): Date },
  input: {
    userId: string;
    cardId: string;
    ip: string | null;
    /** Throws 403 `reauthentication_required` when the password is not recent (session plugin). */
    assertRecentPassword: () => void;
  },
): Promise<CardReveal> {
  // Ownership first: someone else's card id answers 404 whatever the state of this session.
  const row = await loadOwnedCard(deps.db, input.userId, input.cardId);
  input.assertRecentPassword();
  const number = decryptCardSecret(deps.config.cardDataKey, row.numberEnc, row.id);
  const cvv = decryptCardSecret(deps.config.cardDataKey, row.cvvEnc, row.id);
  await audit(deps.db, {
    userId: input.userId,
    event: 'card_revealed',
    ip: input.ip,
    details: { cardId: row.id, last4: row.last4 },
    at: deps.now(),
  });
  return {
    cardId: row.id,
    number,
    expiryMonth: String(row.expMonth).padStart(2, '0'),
    expiryYear: String(row.expYear % 100).padStart(2, '0'),
    cvv,
    network: row.network as CardReveal['network'],
  };
}
