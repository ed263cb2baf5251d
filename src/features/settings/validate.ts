/** The settings rules of docs/product.md "Validation rules", per section, as field → message. */
import { MAX_UPLOAD_BYTES } from '../../contracts/constants.ts';
import {
  type LimitedField,
  MESSAGES,
  emailError,
  isValidUsername,
  textLengthError,
} from '../../contracts/validation.ts';
import type {
  BasicValues,
  FieldErrors,
  ProfileValues,
  ReferralValues,
  SecurityValues,
} from './settingsState.ts';
import type { UsernameAvailability } from '../auth/useUsernameAvailability.ts';

const SETTINGS_MESSAGES = {
  usernameNotAvailable: 'Username not available.',
  answerNeeded: 'Enter the answer to your new question.',
  questionNeeded: 'Enter a security question for this answer.',
  pictureTooLarge: 'Choose a picture of 20 MB or less.',
} as const;

function addLengthErrors(errors: FieldErrors, fields: Partial<Record<LimitedField, string>>) {
  for (const [field, value] of Object.entries(fields) as [LimitedField, string][]) {
    const message = textLengthError(field, value.trim());
    if (message) errors[field] ??= message;
  }
}

/** A new email needs the current password (docs/decisions.md "Re-authentication"). */
export function emailChanged(values: BasicValues, storedEmail: string): boolean {
  return values.email.trim() !== storedEmail.trim();
}

export function validateBasic(
  values: BasicValues,
  availability: UsernameAvailability,
  storedEmail: string,
): FieldErrors {
  const errors: FieldErrors = {};
  const username = values.username.trim();
  if (!isValidUsername(username)) errors.username = MESSAGES.usernameRule;
  else if (availability === 'taken') errors.username = SETTINGS_MESSAGES.usernameNotAvailable;
  // Settings has one email message: empty is not a valid address either.
  if (emailError(values.email)) errors.email = MESSAGES.emailInvalid;
  if (emailChanged(values, storedEmail) && !values.currentPassword)
    errors.currentPassword = MESSAGES.currentPasswordRequired;
  addLengthErrors(errors, { firstName: values.firstName, lastName: values.lastName });
  return errors;
}

/** The two things the Security section can save; each goes through its own call. */
export interface SecurityPlan {
  password: boolean;
  question: boolean;
}

export function securityPlan(values: SecurityValues, storedQuestion: string): SecurityPlan {
  const question =
    values.securityQuestion.trim() !== storedQuestion.trim() || values.securityAnswer.trim() !== '';
  // The current password alone belongs to a question change when there is one.
  const password =
    values.newPassword !== '' ||
    values.confirmPassword !== '' ||
    (values.currentPassword !== '' && !question);
  // Saving with nothing changed means the member meant the password: its messages explain what is missing.
  return { password: password || !question, question };
}

export function validateSecurity(values: SecurityValues, storedQuestion: string): FieldErrors {
  const errors: FieldErrors = {};
  const plan = securityPlan(values, storedQuestion);
  if (plan.password) {
    if (!values.currentPassword) errors.currentPassword = MESSAGES.currentPasswordRequired;
    if (!values.newPassword) errors.newPassword = MESSAGES.newPasswordRequired;
    else if (values.confirmPassword !== values.newPassword)
      errors.confirmPassword = MESSAGES.newPasswordMismatch;
  }
  if (plan.question) {
    // docs/decisions.md "Re-authentication": the question and answer need the current password too.
    if (!values.currentPassword) errors.currentPassword = MESSAGES.currentPasswordRequired;
    const question = values.securityQuestion.trim();
    const answer = values.securityAnswer.trim();
    const questionChanged = question !== storedQuestion.trim();
    if (question && questionChanged && !answer)
      errors.securityAnswer = SETTINGS_MESSAGES.answerNeeded;
    if (!question && answer) errors.securityQuestion = SETTINGS_MESSAGES.questionNeeded;
    addLengthErrors(errors, {
      securityQuestion: values.securityQuestion,
      securityAnswer: values.securityAnswer,
    });
  }
  return errors;
}

export function validateProfile(values: ProfileValues): FieldErrors {
  const errors: FieldErrors = {};
  if (values.profilePic && values.profilePic.size > MAX_UPLOAD_BYTES) {
    errors.profilePic = SETTINGS_MESSAGES.pictureTooLarge;
  }
  addLengthErrors(errors, { favoriteQuote: values.favoriteQuote });
  return errors;
}

export function validateReferral(values: ReferralValues): FieldErrors {
  const errors: FieldErrors = {};
  addLengthErrors(errors, { referral: values.referral });
  return errors;
}
