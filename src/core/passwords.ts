// Password and e-mail rules shared by the register, reset and change-password forms and the
// server (docs/rules.md#messages, docs/rules.md#security).

export const MIN_PASSWORD_LENGTH = 8;
/** Long enough for any passphrase or manager-generated password (ASVS asks for at least 64). */
export const MAX_PASSWORD_LENGTH = 128;

export const PASSWORD_MESSAGES = {
  required: 'Password is required',
  tooShort: 'Password must be at least 8 characters',
  missingClasses: 'Password must contain at least one uppercase letter, one lowercase letter, and one number',
  tooLong: `Password must be at most ${MAX_PASSWORD_LENGTH} characters`,
  tooCommon: 'This password is too common. Please choose a less predictable one.',
  confirmRequired: 'Please confirm your password',
  mismatch: 'Passwords must match',
  newDoesNotMeetRequirements: 'New password does not meet all requirements',
  newMismatch: 'New passwords do not match',
} as const;

export const EMAIL_MESSAGES = {
  required: 'Email is required',
  invalid: 'Invalid email address',
} as const;

export type PasswordCheckId = 'length' | 'uppercase' | 'lowercase' | 'number';

export interface PasswordCheck {
  id: PasswordCheckId;
  label: string;
  ok: boolean;
}

// Length is counted in code points so an emoji or accented letter counts as one character,
// as the user sees it.
function characterCount(pw: string): number {
  return [...pw].length;
}

// Letters and digits of any script count: a password of Cyrillic or Greek letters is no weaker.
const HAS_UPPER = /\p{Lu}/u;
const HAS_LOWER = /\p{Ll}/u;
const HAS_DIGIT = /\p{Nd}/u;

/** The live checklist on the register and change-password forms. */
export function passwordChecks(pw: string): PasswordCheck[] {
  return [
    { id: 'length', label: 'At least 8 characters', ok: characterCount(pw) >= MIN_PASSWORD_LENGTH },
    { id: 'uppercase', label: 'One uppercase letter', ok: HAS_UPPER.test(pw) },
    { id: 'lowercase', label: 'One lowercase letter', ok: HAS_LOWER.test(pw) },
    { id: 'number', label: 'One number', ok: HAS_DIGIT.test(pw) },
  ];
}

/**
 * The first problem with a new password, or null. The password is taken exactly as given:
 * no trimming and no truncation, so what is checked is what gets hashed.
 */
export function passwordProblem(pw: string): string | null {
  if (pw.length === 0) return PASSWORD_MESSAGES.required;
  const count = characterCount(pw);
  if (count < MIN_PASSWORD_LENGTH) return PASSWORD_MESSAGES.tooShort;
  if (count > MAX_PASSWORD_LENGTH) return PASSWORD_MESSAGES.tooLong;
  if (!HAS_UPPER.test(pw) || !HAS_LOWER.test(pw) || !HAS_DIGIT.test(pw)) {
    return PASSWORD_MESSAGES.missingClasses;
  }
  if (isCommonPassword(pw)) return PASSWORD_MESSAGES.tooCommon;
  return null;
}

/**
 * Some of the most used passwords (from public breach-frequency lists), plus the variants
 * that satisfy an upper/lower/digit rule, which are the ones this app's rule would let through.
 * Stored lower-case; comparison ignores case, because "PASSWORD1" is no stronger than "Password1".
 */
const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  // Top of the breach lists
  '123456', 'password', '12345678', 'qwerty', '123456789', '12345', '1234', '111111',
  '1234567', 'dragon', '123123', 'baseball', 'abc123', 'football', 'monkey', 'letmein',
  '696969', 'shadow', 'master', '666666', 'qwertyuiop', '123321', 'mustang', '1234567890',
  'michael', '654321', 'superman', '1qaz2wsx', '7777777', '121212', '000000', 'qazwsx',
  '123qwe', 'killer', 'trustno1', 'jordan', 'jennifer', 'zxcvbnm', 'asdfgh', 'hunter',
  'buster', 'soccer', 'harley', 'batman', 'andrew', 'tigger', 'sunshine', 'iloveyou',
  '2000', 'charlie', 'robert', 'thomas', 'hockey', 'ranger', 'daniel', 'starwars',
  '112233', 'george', 'computer', 'michelle', 'jessica', 'pepper', '1111',
  'zxcvbn', '555555', '11111111', '131313', 'freedom', '777777', 'pass', 'maggie',
  '159753', 'aaaaaa', 'ginger', 'princess', 'joshua', 'cheese', 'amanda', 'summer',
  'love', 'ashley', 'nicole', 'chelsea', 'biteme', 'matthew', 'access', 'yankees',
  '987654321', 'dallas', 'austin', 'thunder', 'taylor', 'matrix', 'welcome', 'admin',
  'login', 'qwerty12345', 'iloveu', 'lovely', 'flower', 'hottie', 'loveme', 'whatever',
  'passw0rd', 'password1', 'password123', 'qwerty123', 'qwerty1', 'abc12345', 'abcd1234',
  '1q2w3e4r', '1q2w3e4r5t', 'q1w2e3r4', 'zaq12wsx', 'iloveyou1', 'princess1', 'welcome1',
  'admin123', 'letmein1', 'sunshine1', 'football1', 'baseball1', 'monkey1', 'dragon1',
  'master1', 'superman1', 'charlie1', 'shadow1', 'michael1', 'jordan23', 'changeme',
  'secret', 'test1234', 'temp1234', 'default', 'guest', 'root', 'toor', 'administrator',
  // Variants that pass "8+ characters, upper, lower and digit"
  'password12', 'password2', 'password01', 'password1234', 'passw0rd1', 'p@ssw0rd',
  'p@ssword1', 'p@ssw0rd1', 'pa55word', 'pa55w0rd', 'welcome123', 'welcome01', 'welcome2024',
  'welcome2025', 'qwerty12', 'qwerty1234', 'qwertyuiop1', 'asdfghjkl1', 'zxcvbnm1', 'abcdefg1',
  'abcdef12', 'abcd12345', 'abc123456', 'a1b2c3d4', 'aa123456', 'iloveyou2', 'letmein123',
  'admin1234', 'administrator1', 'changeme1', 'changeme123', 'trustno12', 'monkey123',
  'dragon123', 'master123', 'football123', 'baseball123', 'superman123', 'batman123',
  'starwars1', 'sunshine123', 'princess123', 'charlie123', 'michael123', 'jessica1',
  'jennifer1', 'michelle1', 'ashley123', 'summer2024', 'summer2025', 'winter2024',
  'winter2025', 'spring2024', 'spring2025', 'autumn2024', 'autumn2025', 'january2025',
  'december2024', 'hello123', 'helloworld1', 'secret123', 'computer1', 'freedom1',
  'whatever1', 'trustme1', 'mypassword1', 'newpassword1', 'test12345', 'testing123',
  'qazwsx123', '1qaz2wsx3edc', 'zaq1zaq1', 'q1w2e3r4t5', 'google123', 'facebook1',
  'payweave1', 'payweave123',
]);

export function isCommonPassword(pw: string): boolean {
  return COMMON_PASSWORDS.has(pw.toLowerCase());
}

/** How many entries the list holds, for tests and documentation. */
export const COMMON_PASSWORD_COUNT = COMMON_PASSWORDS.size;

/** E-mail addresses are compared and stored trimmed and lower-cased. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

// Deliberately simple: one @, no spaces, a dot in the domain. Deliverability is proven by the
// reset e-mail arriving, not by a regular expression.
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** 254 characters is the longest address SMTP can carry (RFC 5321 path limit). */
export const MAX_EMAIL_LENGTH = 254;

export function emailProblem(email: string): string | null {
  const normalised = normaliseEmail(email);
  if (normalised === '') return EMAIL_MESSAGES.required;
  if (normalised.length > MAX_EMAIL_LENGTH || !EMAIL_SHAPE.test(normalised)) return EMAIL_MESSAGES.invalid;
  return null;
}
