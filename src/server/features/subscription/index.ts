// The subscription feature's public face: what other features may use.
export { revertToFree } from './cancel-subscription';
