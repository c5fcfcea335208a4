// The combines feature's public face: what other features (dashboard, payout-methods) may use.
// Code inside combines imports its own files directly; another feature imports only from here.
export { afterCompletionHooks, type CompletionContext } from './completion-hooks';
export { listCombines } from './draft-service';
export { deleteDraftsOf } from './delete-drafts';
