// The one way the web tests make a simulated user, and put a value in a field.
import userEvent, { type UserEvent } from '@testing-library/user-event';

/**
 * A user who types without waiting for a timer between keys. The default (`delay: 0`) yields a
 * `setTimeout(0)` per key: on a busy machine a 20-character `user.type` then took seconds, and tests
 * hit their timeout. Each key still fires its own keydown / input / keyup, so what a component does
 * as it is typed (formatting, digits only) is still exercised.
 */
export function setupUser(): UserEvent {
  return userEvent.setup({ delay: null });
}

/**
 * Puts `text` into `field` at once, as a paste: a click, then one input event with the whole value
 * (the field's maxLength is kept). For a value whose keystrokes are not what the test is about
 * (e-mails, passwords, card and account numbers): a re-render per key is what made those slow.
 */
export async function fill(user: UserEvent, field: HTMLElement, text: string): Promise<void> {
  await user.click(field);
  await user.paste(text);
}
