import { INTERESTS_MAX } from '../../contracts/constants.ts';
import {
  MESSAGES,
  type SignupField,
  signupErrors,
  usernameError,
  usernameRuleWhileTyping,
} from '../../contracts/validation.ts';
import type { UsernameAvailability } from './useUsernameAvailability.ts';

export interface SignupValues {
  username: string;
  firstName: string;
  lastName: string;
  email: string;
  birthday: string;
  password: string;
  confirmPassword: string;
  securityQuestion: string;
  securityAnswer: string;
  interests: string[];
  favoriteQuote: string;
  referral: string;
}

export const EMPTY_SIGNUP: SignupValues = {
  username: '',
  firstName: '',
  lastName: '',
  email: '',
  birthday: '',
  password: '',
  confirmPassword: '',
  securityQuestion: '',
  securityAnswer: '',
  interests: [],
  favoriteQuote: '',
  referral: '',
};

export type SignupFormField = SignupField | 'confirmPassword';
export type SignupErrors = Partial<Record<SignupFormField, string | undefined>>;
export type Availability = 'unknown' | 'available' | 'unavailable';

/** Signup's three words for a check's state: blank until the server said yes or no. */
export function signupAvailability(availability: UsernameAvailability): Availability {
  if (availability === 'available') return 'available';
  return availability === 'taken' ? 'unavailable' : 'unknown';
}

/** Every rule of docs/product.md "Validation rules" for signup, plus what only the form knows (confirmation, availability). */
export function validateSignup(
  values: SignupValues,
  hasProfilePic: boolean,
  availability: Availability,
  today: Date = new Date(),
): SignupErrors {
  const errors: SignupErrors = {};
  for (const [field, message] of signupErrors({ ...values, hasProfilePic }, today))
    errors[field] ??= message;
  if (!errors.username && availability === 'unavailable')
    errors.username = MESSAGES.usernameNotAvailable;
  if (!values.confirmPassword) errors.confirmPassword = MESSAGES.confirmRequired;
  else if (values.confirmPassword !== values.password)
    errors.confirmPassword = MESSAGES.confirmMismatch;
  return errors;
}

/** Only a name that keeps the rule is worth asking the server about (docs/product.md "Validation rules": 3 or more characters). */
export function isCheckableUsername(username: string): boolean {
  return usernameError(username) === null;
}

/**
 * What the username field says while the member types: the rule's message when the name breaks
 * it, otherwise the availability word. Never both, so an invalid name never reads `Not available`.
 */
export function usernameFeedback(
  username: string,
  availability: Availability,
): { rule: string | null; availability: Availability } {
  const rule = usernameRuleWhileTyping(username);
  if (rule || !isCheckableUsername(username)) return { rule, availability: 'unknown' };
  return { rule: null, availability };
}

/** Checking a further interest past the cap is blocked (docs/product.md "Validation rules"). */
export function toggleInterest(current: readonly string[], interest: string): string[] {
  if (current.includes(interest)) return current.filter((item) => item !== interest);
  return current.length >= INTERESTS_MAX ? [...current] : [...current, interest];
}

/** Field order on the page, so the first error can take focus. */
export const FIELD_ORDER: readonly SignupFormField[] = [
  'username',
  'firstName',
  'lastName',
  'email',
  'birthday',
  'password',
  'confirmPassword',
  'securityQuestion',
  'securityAnswer',
  'profilePic',
  'interests',
  'favoriteQuote',
  'referral',
];

export function toFormData(values: SignupValues, profilePic: File, remember: boolean): FormData {
  const form = new FormData();
  const { confirmPassword: _confirm, interests, password, ...texts } = values;
  for (const [key, value] of Object.entries(texts)) form.append(key, value.trim());
  form.append('password', password);
  form.append('interests', interests.join(','));
  form.append('remember', String(remember));
  form.append('profilePic', profilePic);
  return form;
}
