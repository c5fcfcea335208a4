// The system feature's public face: the promo counter and the support address other features read.
export { PROMO_COUNTER_ID, readPromoStatus } from './promo-status';
export { SUPPORT_EMAIL } from './routes';
