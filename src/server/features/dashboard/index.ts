// The dashboard feature's public face.
export { promoStateFor } from './dashboard-service';
