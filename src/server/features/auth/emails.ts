// The account e-mails. Plain text first (every client shows it); the links are absolute, built
// from APP_URL, so they work from any mail client.
import type { MailMessage } from '../../adapters/mailer';
import { SUPPORT_EMAIL } from '../../lib/support-address';

export const RESET_LINK_VALID_MINUTES = 60;

export function passwordResetEmail(input: { to: string; appUrl: string; token: string }): MailMessage {
  const link = `${input.appUrl}/reset-password/confirm?token=${encodeURIComponent(input.token)}`;
  return {
    to: input.to,
    subject: 'Reset your PayWeave password',
    text: [
      'Someone (hopefully you) asked to reset the password of your PayWeave account.',
      '',
      `Choose a new password here: ${link}`,
      '',
      `The link works once and expires in ${RESET_LINK_VALID_MINUTES} minutes.`,
      'If you did not ask for this, ignore this e-mail: your password stays the same.',
    ].join('\n'),
    html: [
      '<p>Someone (hopefully you) asked to reset the password of your PayWeave account.</p>',
      `<p><a href="${escapeHtml(link)}">Choose a new password</a></p>`,
      `<p>The link works once and expires in ${RESET_LINK_VALID_MINUTES} minutes. If you did not ask for this, ignore this e-mail: your password stays the same.</p>`,
    ].join('\n'),
  };
}

export function passwordChangedEmail(input: { to: string; appUrl: string }): MailMessage {
  return {
    to: input.to,
    subject: 'Your PayWeave password was changed',
    text: [
      'The password of your PayWeave account was just changed, and every other signed-in device was signed out.',
      '',
      `If this was not you, reset your password now: ${input.appUrl}/reset-password`,
    ].join('\n'),
  };
}

export function emailChangedEmail(input: { to: string; newEmail: string; appUrl: string }): MailMessage {
  return {
    to: input.to,
    subject: 'Your PayWeave e-mail address was changed',
    text: [
      `The e-mail address of your PayWeave account was changed to ${input.newEmail}.`,
      '',
      `If this was not you, contact ${SUPPORT_EMAIL} right away.`,
    ].join('\n'),
  };
}

/** Two-factor sign-in turned on or off, or new recovery codes made (the codes are never e-mailed). */
export function twoFactorChangedEmail(input: { to: string; appUrl: string; change: 'enabled' | 'disabled' | 'recovery_codes' }): MailMessage {
  const what: Record<typeof input.change, [subject: string, body: string]> = {
    enabled: ['Two-factor sign-in is on for your PayWeave account', 'Two-factor sign-in was turned on for your PayWeave account, and every other signed-in device was signed out.'],
    disabled: ['Two-factor sign-in is off for your PayWeave account', 'Two-factor sign-in was turned off for your PayWeave account. Signing in now needs only your password.'],
    recovery_codes: ['New PayWeave recovery codes', 'New recovery codes were made for your PayWeave account; the old ones no longer work.'],
  };
  const [subject, body] = what[input.change];
  return {
    to: input.to,
    subject,
    text: [body, '', `If this was not you, reset your password now (${input.appUrl}/reset-password) and contact ${SUPPORT_EMAIL}.`].join('\n'),
  };
}

export const UNLOCK_LINK_VALID_MINUTES = 60;

/** The daily cap of wrong second-factor codes was reached (decision 083): the owner hears of it and can unlock. */
export function twoFactorLockedEmail(input: { to: string; appUrl: string; token: string; wrongCodes: number }): MailMessage {
  const link = `${input.appUrl}/unlock-two-factor?token=${encodeURIComponent(input.token)}`;
  const lines = [
    `Someone entered ${input.wrongCodes} incorrect two-factor codes for your PayWeave account today, after entering your password.`,
    'Codes from your authenticator app are paused until you sign in with a recovery code or open this link:',
  ];
  return {
    to: input.to,
    subject: 'Two-factor codes paused on your PayWeave account',
    text: [
      lines[0],
      '',
      lines[1],
      link,
      '',
      `The link works once and expires in ${UNLOCK_LINK_VALID_MINUTES} minutes.`,
      `If this was not you, your password is known to someone else: reset it now (${input.appUrl}/reset-password).`,
    ].join('\n'),
    html: [
      `<p>${escapeHtml(lines[0]!)}</p>`,
      `<p>${escapeHtml(lines[1]!)} <a href="${escapeHtml(link)}">Unlock two-factor codes</a></p>`,
      `<p>The link works once and expires in ${UNLOCK_LINK_VALID_MINUTES} minutes. If this was not you, your password is known to someone else: <a href="${escapeHtml(input.appUrl)}/reset-password">reset it now</a>.</p>`,
    ].join('\n'),
  };
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function accountClosedEmail(input: { to: string }): MailMessage {
  return {
    to: input.to,
    subject: 'Your PayWeave account is closed',
    text: [
      'Your PayWeave account was closed at your request. Every device was signed out, and your cards and saved drafts are closed.',
      'Any hold a draft had on your sources is being released, and any cash-out already on its way still reaches you.',
      '',
      `We keep the records of your payments as the law requires. If you did not close your account, contact ${SUPPORT_EMAIL} right away: only our support team can reopen it.`,
    ].join('\n'),
  };
}

/** Sent instead of a reset link when the address belongs to a closed account (decision 165). */
export function closedAccountResetEmail(input: { to: string }): MailMessage {
  return {
    to: input.to,
    subject: 'Your PayWeave account is closed',
    text: [
      'Someone (hopefully you) asked to reset the password of the PayWeave account of this address. That account is closed, so its password cannot be reset, and this address cannot open a new account.',
      '',
      `If you want it reopened, or did not close it, write to ${SUPPORT_EMAIL}. If you did not ask for this, ignore this e-mail.`,
    ].join('\n'),
  };
}
