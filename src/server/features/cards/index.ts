// The cards feature's public face.
export { isWithinValidity } from './card-view';
