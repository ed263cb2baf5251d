import { type RefObject, useEffect, useEffectEvent, useReducer, useRef, useState } from 'react';
import { SETTINGS_TOAST_MS } from '../../lib/constants.ts';
import { useToast } from '../../components/useToast.ts';
import { useSession } from '../auth/store.ts';
import type { CurrentUser } from '../../contracts/readers/user.ts';
import { useTheme } from '../theme/store.ts';
import { settingsApi } from './api.ts';
import { saveErrorOf } from './saveError.ts';
import { saveSection } from './saveSection.ts';
import { OWN, freshMember, useSettingsData } from './store.ts';
import {
  type FieldErrors,
  type SectionId,
  type SettingsValues,
  initialState,
  settingsReducer,
  valuesFromUser,
} from './settingsState.ts';
import { validateBasic, validateProfile, validateReferral, validateSecurity } from './validate.ts';
import {
  type UsernameAvailability,
  useUsernameAvailability,
} from '../auth/useUsernameAvailability.ts';
import { useNetwork } from '../offline/store.ts';

function validate(
  section: SectionId,
  values: SettingsValues,
  stored: SettingsValues,
  availability: UsernameAvailability,
) {
  switch (section) {
    case 'basic':
      return validateBasic(values.basic, availability, stored.basic.email);
    case 'security':
      return validateSecurity(values.security, stored.security.securityQuestion);
    case 'profile':
      return validateProfile(values.profile);
    case 'referral':
      return validateReferral(values.referral);
  }
}

/** Shares an updated member with the app and the other tabs (docs/product.md "Session and API calls"). */
function share(user: CurrentUser) {
  useSession.getState().setUser(user);
}

/** GET /api/auth/me when the page opens, so the form starts from the server's values. */
function useFreshMember(): boolean {
  // An answer from an earlier visit is older than the member the app holds now: not shared.
  const [since] = useState(() => Date.now());
  const entry = useSettingsData((state) => state.member[OWN]);
  useEffect(() => freshMember.show(OWN), []);
  const fresh =
    entry?.status === 'ready' && (entry.fetchedAt ?? 0) >= since ? entry.value : undefined;
  useEffect(() => {
    if (fresh && JSON.stringify(fresh) !== JSON.stringify(useSession.getState().user)) share(fresh);
  }, [fresh]);
  return entry?.status === 'error' || (entry?.status === 'ready' && !entry.value);
}

/** The settings page's state, its saves and its keyboard shortcut. */
export function useSettings(user: CurrentUser, root: RefObject<HTMLElement | null>) {
  const theme = useTheme((state) => state.theme);
  const [state, dispatch] = useReducer(settingsReducer, valuesFromUser(user, theme), initialState);
  const [toast, showToast] = useToast(SETTINGS_TOAST_MS);
  const loadFailed = useFreshMember();
  const saving = useRef(false);

  // The member changed elsewhere (another tab, /me, the theme toggle): follow it, keep the draft.
  const [source, setSource] = useState({ user, theme });
  if (source.user !== user || source.theme !== theme) {
    setSource({ user, theme });
    dispatch({ type: 'sync', stored: valuesFromUser(user, theme) });
  }

  const availability = useUsernameAvailability(
    state.values.basic.username,
    settingsApi.checkUsername,
    { current: user.username, enabled: state.editing === 'basic' },
  );

  const focusField = (section: SectionId, field: string) =>
    root.current
      ?.querySelector<HTMLElement>(
        `#settings-${section} [data-field="${field}"] :is(input, textarea)`,
      )
      ?.focus();

  const refocus = useRef<{ section: SectionId; field: string } | null>(null);
  useEffect(() => {
    if (state.saving || !refocus.current) return;
    focusField(refocus.current.section, refocus.current.field);
    refocus.current = null;
  });

  const save = async () => {
    const section = state.editing;
    if (!section || saving.current) return;
    const errors: FieldErrors = validate(section, state.values, state.stored, availability);
    const first = Object.keys(errors)[0];
    if (first) {
      dispatch({ type: 'invalid', errors });
      focusField(section, first);
      return;
    }
    saving.current = true;
    dispatch({ type: 'saveStart' });
    try {
      const message = await saveSection(section, state.values, state.stored, share);
      const latest = useSession.getState().user ?? user;
      dispatch({ type: 'saved', stored: valuesFromUser(latest, useTheme.getState().theme) });
      showToast(message);
    } catch (error) {
      const { message, field, toast: alsoToast } = saveErrorOf(error);
      // The message stays in the section until the member acts on it, said once.
      dispatch({ type: 'saveFailed', errors: { [field ?? 'form']: message } });
      if (alsoToast) showToast(message);
      // The fields are disabled while saving: focus waits for them to be enabled again.
      if (field) refocus.current = { section, field };
    } finally {
      saving.current = false;
    }
  };

  // Ctrl/Cmd+S saves the section being edited instead of saving the web page.
  const onKeyDown = useEffectEvent((event: KeyboardEvent) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.key.toLowerCase() !== 's')
      return;
    if (!state.editing) return;
    event.preventDefault();
    // Like the disabled Save button, the shortcut waits for the connection.
    if (!useNetwork.getState().online) return;
    void save();
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKeyDown(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  // Edit puts focus on the section's first field; leaving editing puts it back on Edit.
  const lastEditing = useRef<SectionId | null>(null);
  useEffect(() => {
    const at = root.current;
    if (state.editing) {
      at?.querySelector<HTMLElement>(
        `#settings-${state.editing} fieldset :is(input, textarea):not([readonly])`,
      )?.focus();
    } else if (lastEditing.current) {
      at?.querySelector<HTMLElement>(
        `#settings-${lastEditing.current} [data-action="edit"]`,
      )?.focus();
    }
    lastEditing.current = state.editing;
  }, [state.editing, root]);

  return { state, dispatch, availability, save, toast, showToast, loadFailed };
}
