// Card numbers never reach a table, an e-mail or a log through a free-text field (
// item 7, docs/rules.md#never-logged). Every JSON body is scrubbed on arrival, before validation, with the one
// scrubber in core/card-scrubber.ts: whatever a field is called, if it is not one of the few that
// hold a card number or a secret on purpose, a pasted card number in it becomes the mask. New
// fields are covered without anyone remembering to call the scrubber.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { scrubCardNumbersDeep } from '../../core/card-scrubber';

/**
 * Fields whose value is a card number, a CVV or a secret, each handled by its own code (the
 * source and payment card forms encrypt or drop them; passwords are hashed as typed; a payout
 * account number is reduced to its last 4 digits). Changing one of these would change what the
 * user meant, e.g. a password that happens to hold 16 digits.
 */
export const CARD_SCRUBBER_EXEMPT_FIELDS: ReadonlySet<string> = new Set([
  'cardNumber',
  'number',
  'cvv',
  'expiry',
  'password',
  'currentPassword',
  'newPassword',
  'confirmPassword',
  'token',
  'code',
  'challengeId',
  'detail',
  // A passkey's answer (WebAuthn): signed base64url bytes that must reach the verifier untouched.
  'id',
  'rawId',
  'clientDataJSON',
  'authenticatorData',
  'attestationObject',
  'signature',
  'userHandle',
  // An e-mail address is an identifier, not free text: "ann.1764082530123@example.com" must
  // reach the account as typed even when its digits happen to pass Luhn.
  'email',
]);

export const cardScrubberPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', (request, _reply, done) => {
      if (request.body !== null && typeof request.body === 'object') request.body = scrubCardNumbersDeep(request.body, CARD_SCRUBBER_EXEMPT_FIELDS);
      done();
    });
  },
  { name: 'payweave-card-scrubber' },
);
