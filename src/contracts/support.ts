// The contact form of /support and /faq (docs/rules.md#screens, docs/rules.md#honest-figures): name, e-mail and message, all required.
// One schema for the browser's validation and the server's.
import { z } from 'zod';
import { emailProblem, EMAIL_MESSAGES, MAX_EMAIL_LENGTH } from '../core/passwords';

export const MAX_SUPPORT_NAME_LENGTH = 100;
export const MAX_SUPPORT_MESSAGE_LENGTH = 5000;

export const SUPPORT_FORM_MESSAGES = {
  nameRequired: 'Name is required',
  nameTooLong: `Name must be at most ${MAX_SUPPORT_NAME_LENGTH} characters`,
  messageRequired: 'Message is required',
  messageTooLong: `Message must be at most ${MAX_SUPPORT_MESSAGE_LENGTH} characters`,
} as const;

export const supportMessageRequest = z.object({
  name: z.string().trim().min(1, SUPPORT_FORM_MESSAGES.nameRequired).max(MAX_SUPPORT_NAME_LENGTH, SUPPORT_FORM_MESSAGES.nameTooLong),
  email: z
    .string()
    .trim()
    .max(MAX_EMAIL_LENGTH, EMAIL_MESSAGES.invalid)
    .superRefine((value, context) => {
      const problem = emailProblem(value);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    }),
  message: z
    .string()
    .trim()
    .min(1, SUPPORT_FORM_MESSAGES.messageRequired)
    .max(MAX_SUPPORT_MESSAGE_LENGTH, SUPPORT_FORM_MESSAGES.messageTooLong),
});
export type SupportMessageRequest = z.output<typeof supportMessageRequest>;

export const supportMessageResponse = z.object({ status: z.literal('queued') });
