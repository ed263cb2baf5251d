/**
 * The settings page as a state machine (docs/product.md "Settings"): each section is viewing or editing, one at a
 * time. Edit snapshots the values, Undo restores that snapshot, Cancel restores the stored
 * member's values and leaves editing, Save leaves editing only when the server said yes.
 */
import type { Theme } from '../../contracts/theme.ts';
import type { CurrentUser } from '../../contracts/readers/user.ts';
import { toggleInterest } from '../auth/signupForm.ts';

export const SECTIONS = [
  { id: 'basic', label: 'Step 1 Basic Info', nav: 'Basic Info' },
  { id: 'security', label: 'Step 2 Security', nav: 'Security' },
  { id: 'profile', label: 'Step 3 Profile', nav: 'Profile' },
  { id: 'referral', label: 'Step 4 Referral', nav: 'Referral' },
] as const;
export type SectionId = (typeof SECTIONS)[number]['id'];

export interface BasicValues {
  firstName: string;
  lastName: string;
  username: string;
  email: string;
  /** Asked for only while the email differs from the stored one. */
  currentPassword: string;
}
export interface SecurityValues {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
  securityQuestion: string;
  /** Stored hashed, so never read back: blank means "keep the current answer". */
  securityAnswer: string;
}
export interface ProfileValues {
  profilePic: File | null;
  interests: string[];
  favoriteQuote: string;
  theme: Theme;
}
export interface ReferralValues {
  referral: string;
}
export interface SettingsValues {
  basic: BasicValues;
  security: SecurityValues;
  profile: ProfileValues;
  referral: ReferralValues;
}

/** Field name → message, for the section being edited; `form` is a message for the whole section. */
export type FieldErrors = Partial<Record<string, string>>;

export interface SettingsState {
  values: SettingsValues;
  /** What the stored member says; Cancel goes back to it. */
  stored: SettingsValues;
  editing: SectionId | null;
  /** The values at the moment Edit was pressed; undo goes back to it. */
  snapshot: SettingsValues | null;
  saving: boolean;
  errors: FieldErrors;
}

type Change = {
  [S in SectionId]: { type: 'change'; section: S; patch: Partial<SettingsValues[S]> };
}[SectionId];

export type SettingsAction =
  | { type: 'edit'; section: SectionId }
  | Change
  | { type: 'toggleInterest'; interest: string }
  | { type: 'undo' }
  | { type: 'cancel' }
  | { type: 'invalid'; errors: FieldErrors }
  | { type: 'saveStart' }
  | { type: 'saveFailed'; errors: FieldErrors }
  | { type: 'saved'; stored: SettingsValues }
  | { type: 'sync'; stored: SettingsValues };

/** The form's values for a member; the theme is the one the member sees now. */
export function valuesFromUser(user: CurrentUser, theme: Theme): SettingsValues {
  return {
    basic: {
      firstName: user.firstName,
      lastName: user.lastName,
      username: user.username,
      email: user.email,
      currentPassword: '',
    },
    security: {
      currentPassword: '',
      newPassword: '',
      confirmPassword: '',
      securityQuestion: user.securityQuestion,
      securityAnswer: '',
    },
    profile: {
      profilePic: null,
      interests: [...user.interests],
      favoriteQuote: user.favoriteQuote,
      theme,
    },
    referral: { referral: user.referral },
  };
}

export function initialState(stored: SettingsValues): SettingsState {
  return { values: stored, stored, editing: null, snapshot: null, saving: false, errors: {} };
}

function withSection<S extends SectionId>(
  values: SettingsValues,
  section: S,
  next: SettingsValues[S],
): SettingsValues {
  return { ...values, [section]: next };
}

function withoutErrorsFor(errors: FieldErrors, fields: readonly string[]): FieldErrors {
  const next = { ...errors };
  for (const field of fields) delete next[field];
  return next;
}

export function settingsReducer(state: SettingsState, action: SettingsAction): SettingsState {
  const { editing } = state;
  switch (action.type) {
    case 'edit':
      // One section at a time: Edit elsewhere is ignored until this one is saved or cancelled.
      if (editing !== null) return state;
      return { ...state, editing: action.section, snapshot: state.values, errors: {} };
    case 'change': {
      if (editing !== action.section || state.saving) return state;
      const next = { ...state.values[action.section], ...action.patch };
      return {
        ...state,
        values: withSection(state.values, action.section, next),
        errors: withoutErrorsFor(state.errors, [...Object.keys(action.patch), 'form']),
      };
    }
    case 'toggleInterest': {
      if (editing !== 'profile' || state.saving) return state;
      const profile = state.values.profile;
      const interests = toggleInterest(profile.interests, action.interest);
      return { ...state, values: withSection(state.values, 'profile', { ...profile, interests }) };
    }
    case 'undo':
      if (editing === null || !state.snapshot || state.saving) return state;
      return {
        ...state,
        values: withSection(state.values, editing, state.snapshot[editing]),
        errors: {},
      };
    case 'cancel':
      if (editing === null || state.saving) return state;
      return { ...state, values: state.stored, editing: null, snapshot: null, errors: {} };
    case 'invalid':
      return { ...state, errors: action.errors };
    case 'saveStart':
      if (editing === null) return state;
      return { ...state, saving: true, errors: {} };
    case 'saveFailed':
      return { ...state, saving: false, errors: action.errors };
    case 'saved':
      return {
        values: action.stored,
        stored: action.stored,
        editing: null,
        snapshot: null,
        saving: false,
        errors: {},
      };
    case 'sync': {
      // The member changed elsewhere (another tab, a reload of /me): every section but the one
      // being edited follows; the draft in progress is kept.
      if (editing === null) return { ...state, values: action.stored, stored: action.stored };
      return {
        ...state,
        stored: action.stored,
        values: withSection(action.stored, editing, state.values[editing]),
      };
    }
  }
}
