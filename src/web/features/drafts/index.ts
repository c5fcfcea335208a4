// The saved-combines feature's public face: the list the dashboard points to.
export { useDrafts } from './api/drafts';
