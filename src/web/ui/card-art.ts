import './card-art.css';

// One look per virtual card network and type, used by every picture of a card (the My Cards
// grid and list, the flip, the details modal, the wizard's success step), so a card is
// recognisable wherever it appears. A card that cannot be spent keeps its colours, greyed.
export type CardArtNetwork = 'visa' | 'mastercard';
export type CardArtType = 'general' | 'single-use';

export function cardArtClass(network: CardArtNetwork, type: CardArtType, muted = false): string {
  return `card-art card-art--${network}-${type}${muted ? ' card-art--muted' : ''}`;
}
