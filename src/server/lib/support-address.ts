/** Where users write to support (docs/rules.md#demo-mode "contact address"): shown by /api/config and named in e-mails. */
export const SUPPORT_EMAIL = 'support@payweave.example';
