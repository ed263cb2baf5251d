/** What Save does for each section: the calls of docs/product.md "Session and API calls" and the success text of docs/product.md "Errors". */
import { STORAGE_KEYS } from '../../lib/constants.ts';
import { writeLocal } from '../../lib/storage.ts';
import type { CurrentUser } from '../../contracts/readers/user.ts';
import { useTheme } from '../theme/store.ts';
import { settingsApi } from './api.ts';
import type { SectionId, SettingsValues } from './settingsState.ts';
import { emailChanged, securityPlan } from './validate.ts';

const SUCCESS_MESSAGES = {
  basic: 'Basic info saved.',
  password: 'Password changed.',
  question: 'Security question saved.',
  profile: 'Profile updated.',
  referral: 'Referral updated.',
} as const;

/** Hands each updated member to the app at once, so a later failure cannot hide what was saved. */
export type ShareUser = (user: CurrentUser) => void;

function userFrom(user: CurrentUser | null): CurrentUser {
  if (!user) throw new Error('The server answered without a member.');
  return user;
}

async function saveProfile(values: SettingsValues['profile'], share: ShareUser): Promise<string> {
  const { profilePic, interests, favoriteQuote, theme } = values;
  let body: CurrentUser | null;
  if (profilePic) {
    const form = new FormData();
    form.append('interests', interests.join(','));
    form.append('favoriteQuote', favoriteQuote.trim());
    form.append('theme', theme);
    form.append('profilePic', profilePic);
    body = await settingsApi.updateProfileWithPicture(form);
  } else {
    body = await settingsApi.updateProfile({
      interests,
      favoriteQuote: favoriteQuote.trim(),
      theme,
    });
  }
  const user = userFrom(body);
  // A new stamp makes every avatar of the member, in every tab, load the new picture.
  if (profilePic) writeLocal(STORAGE_KEYS.avatarVersion, String(Date.now()));
  if (useTheme.getState().theme !== theme) useTheme.getState().setTheme(theme);
  share(user);
  return SUCCESS_MESSAGES.profile;
}

async function saveSecurity(
  values: SettingsValues['security'],
  storedQuestion: string,
  share: ShareUser,
) {
  const plan = securityPlan(values, storedQuestion);
  if (plan.question) {
    const answer = values.securityAnswer.trim();
    const body = await settingsApi.updateProfile({
      securityQuestion: values.securityQuestion.trim(),
      // A blank answer keeps the stored one, unless the question itself is cleared.
      ...(answer || !values.securityQuestion.trim() ? { securityAnswer: answer } : {}),
      currentPassword: values.currentPassword,
    });
    share(userFrom(body));
  }
  if (!plan.password) return SUCCESS_MESSAGES.question;
  await settingsApi.changePassword({
    currentPassword: values.currentPassword,
    newPassword: values.newPassword,
  });
  return SUCCESS_MESSAGES.password;
}

/** Runs the section's calls; answers the success text or throws what the server said. */
export async function saveSection(
  section: SectionId,
  values: SettingsValues,
  stored: SettingsValues,
  share: ShareUser,
): Promise<string> {
  switch (section) {
    case 'basic': {
      const { firstName, lastName, username, email, currentPassword } = values.basic;
      const body = await settingsApi.updateProfile({
        firstName: firstName.trim(),
        lastName: lastName.trim(),
        username: username.trim(),
        email: email.trim(),
        ...(emailChanged(values.basic, stored.basic.email) ? { currentPassword } : {}),
      });
      share(userFrom(body));
      return SUCCESS_MESSAGES.basic;
    }
    case 'security':
      return saveSecurity(values.security, stored.security.securityQuestion, share);
    case 'profile':
      return saveProfile(values.profile, share);
    case 'referral': {
      share(
        userFrom(await settingsApi.updateProfile({ referral: values.referral.referral.trim() })),
      );
      return SUCCESS_MESSAGES.referral;
    }
  }
}
