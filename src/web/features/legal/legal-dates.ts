// docs/rules.md#demo-mode: the terms are effective 5/25/2025; the privacy policy and compliance statement
// were published with them.
export const LEGAL_EFFECTIVE_DATE = '5/25/2025';
export const LEGAL_EFFECTIVE_ISO_DATE = '2025-05-25';
