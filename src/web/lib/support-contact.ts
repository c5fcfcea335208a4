// How to reach PayWeave support (docs/rules.md#demo-mode, DECISIONS). The address the server configures comes
// from /api/config (usePublicConfig); this default is used until it has answered.
export const DEFAULT_SUPPORT_EMAIL = 'support@payweave.example';
export const SUPPORT_HOURS = 'Monday to Friday, 9am to 6pm ET';
export const SUPPORT_REPLY_TIME = 'within one business day';
