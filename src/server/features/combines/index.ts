// The combines feature's public face: what other features (dashboard, account) may use.
// Code inside combines imports its own files directly; another feature imports only from here.
export { listCombines } from './draft-service';
export { deleteDraftsOf } from './delete-drafts';
