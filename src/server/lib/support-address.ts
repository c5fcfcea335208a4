/** Where users write to support (spec §1 "contact address"): shown by /api/config and named in e-mails. */
export const SUPPORT_EMAIL = 'support@payweave.example';
