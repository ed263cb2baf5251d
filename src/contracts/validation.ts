/**
 * The validation rules of docs/product.md "Validation rules" with their messages. The signup form, the settings form and the
 * server all call these, so a rule and its words live in one place.
 */
import {
  INTERESTS_MAX,
  MINIMUM_AGE,
  PASSWORD_MAX,
  PASSWORD_MIN,
  USERNAME_MAX,
  USERNAME_MIN,
} from './constants.ts';
import { MESSAGES, TEXT_LIMITS } from './validationTexts.ts';

export { MESSAGES, TEXT_LIMITS };

const USERNAME_PATTERN = /^[A-Za-z0-9._-]+$/;
// Deliberately simple: one @, something either side, a dot in the domain, no spaces.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Signup rule (docs/product.md "Validation rules"): required, at least 3; the settings charset and length keep names portable. */
export function usernameError(username: string): string | null {
  const value = username.trim();
  if (!value) return MESSAGES.usernameRequired;
  if (value.length < USERNAME_MIN) return MESSAGES.usernameShort;
  return isValidUsername(value) ? null : MESSAGES.usernameRule;
}

/**
 * The rule's message while the member is still typing, for both forms: only what typing more
 * cannot fix (a character outside the set, or past 20). A name that breaks the rule is never
 * sent to the availability check, so it reads as this message, never as `Not available`.
 */
export function usernameRuleWhileTyping(username: string): string | null {
  const value = username.trim();
  if (!value) return null;
  return value.length > USERNAME_MAX || !USERNAME_PATTERN.test(value)
    ? MESSAGES.usernameRule
    : null;
}

/** Settings rule (docs/product.md "Validation rules"): 3–20 characters of letters, digits, dot, underscore, hyphen. */
export function isValidUsername(username: string): boolean {
  return (
    username.length >= USERNAME_MIN &&
    username.length <= USERNAME_MAX &&
    USERNAME_PATTERN.test(username)
  );
}

export function emailError(email: string): string | null {
  const value = email.trim();
  if (!value) return MESSAGES.emailRequired;
  return value.length <= 254 && EMAIL_PATTERN.test(value) ? null : MESSAGES.emailInvalid;
}

export interface PasswordChecks {
  length: boolean;
  upper: boolean;
  lower: boolean;
  digit: boolean;
  symbol: boolean;
}

/** The strength checklist of docs/product.md "Validation rules" (8+ characters, uppercase, lowercase, number, symbol). */
export function passwordChecks(password: string): PasswordChecks {
  return {
    length: password.length >= PASSWORD_MIN,
    upper: /[A-Z]/.test(password),
    lower: /[a-z]/.test(password),
    digit: /\d/.test(password),
    symbol: /[^A-Za-z0-9]/.test(password),
  };
}

export function passwordError(password: string): string | null {
  if (!password) return MESSAGES.passwordRequired;
  if (password.length > PASSWORD_MAX) return MESSAGES.passwordTooLong;
  return Object.values(passwordChecks(password)).every(Boolean) ? null : MESSAGES.passwordPolicy;
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses YYYY-MM-DD into its parts, or null when it is not a real calendar date. */
function parseBirthday(value: string): { year: number; month: number; day: number } | null {
  const match = DATE_PATTERN.exec(value.trim());
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day
  ) {
    return null;
  }
  return { year, month, day };
}

/** Whole years between a birthday and today. */
function ageOn(birthday: { year: number; month: number; day: number }, today: Date): number {
  const beforeBirthday =
    today.getMonth() + 1 < birthday.month ||
    (today.getMonth() + 1 === birthday.month && today.getDate() < birthday.day);
  return today.getFullYear() - birthday.year - (beforeBirthday ? 1 : 0);
}

export function birthdayError(value: string, today: Date = new Date()): string | null {
  if (!value.trim()) return MESSAGES.birthdayRequired;
  const parsed = parseBirthday(value);
  if (!parsed || parsed.year < 1900) return MESSAGES.birthdayInvalid;
  const age = ageOn(parsed, today);
  if (age < 0) return MESSAGES.birthdayInvalid;
  return age < MINIMUM_AGE ? MESSAGES.underAge : null;
}

export function interestsError(interests: readonly string[]): string | null {
  return interests.length > INTERESTS_MAX ? MESSAGES.tooManyInterests : null;
}

/**
 * Scripts whose letters U+200C and U+200D change (docs/decisions.md "Display text without hidden
 * characters"): the cursive ones, where they join or part two letters, and those with a virama,
 * where they choose a conjunct, a half form or none. Only scripts of Unicode 13 or before, which
 * every browser Orbit runs in knows; a name it does not know would make the pattern fail to load.
 */
const SHAPING_SCRIPTS = [
  ...['Arabic', 'Syriac', 'Nko', 'Mongolian', 'Mandaic', 'Manichaean', 'Psalter_Pahlavi'],
  ...['Adlam', 'Hanifi_Rohingya', 'Sogdian', 'Chorasmian', 'Phags_Pa'],
  ...['Devanagari', 'Bengali', 'Gurmukhi', 'Gujarati', 'Oriya', 'Tamil', 'Telugu', 'Kannada'],
  ...['Malayalam', 'Sinhala', 'Tibetan', 'Myanmar', 'Tagalog', 'Hanunoo', 'Khmer'],
  ...['Tai_Tham', 'Balinese', 'Sundanese', 'Batak', 'Tifinagh', 'Syloti_Nagri', 'Saurashtra'],
  ...['Rejang', 'Javanese', 'Meetei_Mayek', 'Kharoshthi', 'Brahmi', 'Kaithi', 'Chakma', 'Sharada'],
  ...['Khojki', 'Khudawadi', 'Grantha', 'Newa', 'Tirhuta', 'Siddham', 'Modi', 'Takri', 'Ahom'],
  ...['Dogra', 'Dives_Akuru', 'Nandinagari', 'Zanabazar_Square', 'Soyombo', 'Bhaiksuki'],
  ...['Masaram_Gondi', 'Gunjala_Gondi'],
];
const SHAPING = `[${SHAPING_SCRIPTS.map((script) => `\\p{Script=${script}}`).join('')}]`;
/** What may stand before a joiner inside an emoji sequence: a pictograph, a skin tone, U+FE0F. */
const EMOJI = String.raw`[\p{Extended_Pictographic}\p{Emoji_Modifier}\ufe0f]`;

/**
 * Invisible characters members' texts lose (docs/decisions.md "Display text without hidden
 * characters"):
 * - those that reorder the text around them: the embeddings and overrides U+202A–U+202E (U+202E
 *   shows "gpj.exe" as "exe.jpg"), the isolates U+2066–U+2069, and the marks U+200E, U+200F and
 *   U+061C;
 * - those that only hide inside it: the zero width space U+200B, the word joiner U+2060 and the
 *   byte order mark U+FEFF;
 * - the non-joiner U+200C and the joiner U+200D where they change nothing one sees: kept after a
 *   letter of a script they shape, and the joiner between two emoji (👩‍🚀, a family).
 */
const HIDDEN = new RegExp(
  String.raw`[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u200b\u2060\ufeff]` +
    String.raw`|(?<!${SHAPING})(?:\u200c|(?<!${EMOJI})\u200d|\u200d(?!\p{Extended_Pictographic}))`,
  'gu',
);

/** Text members show each other (names, quotes, captions, folders) without hidden characters. */
export function displayText(value: string): string {
  return value.replace(HIDDEN, '');
}

export type LimitedField = keyof typeof TEXT_LIMITS;

export function textLengthError(field: LimitedField, value: string): string | null {
  const { max, label } = TEXT_LIMITS[field];
  return value.length > max ? `${label} is too long (max ${max} characters).` : null;
}

export interface SignupInput {
  username: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  birthday: string;
  referral: string;
  interests: string[];
  securityQuestion: string;
  securityAnswer: string;
  favoriteQuote: string;
  hasProfilePic: boolean;
}
export type SignupField = keyof Omit<SignupInput, 'hasProfilePic'> | 'profilePic';

/** Every signup rule the server checks, in form order; the first entry is the one to report. */
export function signupErrors(
  input: SignupInput,
  today: Date = new Date(),
): [SignupField, string][] {
  const errors: [SignupField, string][] = [];
  const add = (field: SignupField, message: string | null) => {
    if (message) errors.push([field, message]);
  };
  add('username', usernameError(input.username));
  add('email', emailError(input.email));
  add('birthday', birthdayError(input.birthday, today));
  add('password', passwordError(input.password));
  for (const field of Object.keys(TEXT_LIMITS) as LimitedField[])
    add(field, textLengthError(field, input[field]));
  add('interests', interestsError(input.interests));
  // The question as it is stored and shown (docs/decisions.md "Display text without hidden characters").
  if (input.securityAnswer.trim() && !displayText(input.securityQuestion).trim()) {
    add('securityQuestion', 'Add the question your answer belongs to.');
  }
  if (!input.hasProfilePic) add('profilePic', MESSAGES.profileImageRequired);
  return errors;
}
