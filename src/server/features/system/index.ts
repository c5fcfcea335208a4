// The system feature's public face: the promo counter other features read.
export { PROMO_COUNTER_ID, readPromoStatus } from './promo-status';
