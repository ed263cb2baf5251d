import { describe, expect, it } from 'vitest';
import {
  SECTIONS,
  type SectionId,
  type SettingsAction,
  type SettingsState,
  type SettingsValues,
  initialState,
  settingsReducer,
  valuesFromUser,
} from './settingsState.ts';
import { testMember } from '../../test/settings.ts';
import { SETTINGS_INTERESTS } from '../../contracts/interests.ts';

const member = testMember({
  profileImage: '/uploads/a.webp',
  interests: ['Tech', 'Pets'],
  referral: 'FRIEND1',
  favoriteQuote: 'Ad astra',
  securityQuestion: 'First rocket?',
});

const stored = valuesFromUser(member, 'dark');
const start = () => initialState(stored);
const run = (state: SettingsState, ...actions: Parameters<typeof settingsReducer>[1][]) =>
  actions.reduce(settingsReducer, state);
/** Edit pressed on `section`, then `patch` typed into it. */
const typeInto = <S extends SectionId>(
  section: S,
  patch: Partial<SettingsValues[S]>,
): SettingsAction[] => [
  { type: 'edit', section },
  { type: 'change', section, patch },
];

describe('the settings sections', () => {
  it('are the four steps of the settings page, in order', () =>
    expect(SECTIONS.map((section) => section.label)).toEqual([
      'Step 1 Basic Info',
      'Step 2 Security',
      'Step 3 Profile',
      'Step 4 Referral',
    ]));

  it('start from the stored member, all viewing', () => {
    const state = start();
    expect(state.editing).toBeNull();
    expect(state.values.basic).toEqual({
      firstName: 'Nova',
      lastName: 'Star',
      username: 'nova',
      email: 'nova@orbit.example',
      currentPassword: '',
    });
    expect(state.values.security).toMatchObject({
      securityQuestion: 'First rocket?',
      securityAnswer: '',
      currentPassword: '',
    });
    expect(state.values.profile).toEqual({
      profilePic: null,
      interests: ['Tech', 'Pets'],
      favoriteQuote: 'Ad astra',
      theme: 'dark',
    });
    expect(state.values.referral).toEqual({ referral: 'FRIEND1' });
  });
});

describe('the section state machine', () => {
  const renamed = valuesFromUser({ ...member, firstName: 'Renamed' }, 'dark');
  /** Basic Info being edited when a rename made elsewhere arrives. */
  const typedThenRenamedElsewhere = (patch: Partial<SettingsValues['basic']>) =>
    run(start(), ...typeInto('basic', patch), { type: 'sync', stored: renamed });

  it('Edit puts one section in editing and snapshots the values', () => {
    const state = run(start(), { type: 'edit', section: 'basic' });
    expect(state.editing).toBe('basic');
    expect(state.snapshot).toEqual(stored);
  });

  it('ignores changes while viewing', () => {
    const state = run(start(), { type: 'change', section: 'basic', patch: { username: 'other' } });
    expect(state.values.basic.username).toBe('nova');
  });

  it('keeps one section editing at a time: Edit elsewhere and changes elsewhere are ignored', () => {
    const state = run(
      start(),
      { type: 'edit', section: 'basic' },
      ...typeInto('referral', { referral: 'X' }),
    );
    expect(state.editing).toBe('basic');
    expect(state.values.referral.referral).toBe('FRIEND1');
  });

  it('Undo Changes restores the snapshot and stays editing', () => {
    const state = run(start(), ...typeInto('basic', { username: 'orion', email: 'o@x.io' }), {
      type: 'undo',
    });
    expect(state.editing).toBe('basic');
    expect(state.values.basic).toEqual(stored.basic);
  });

  it('Undo Changes goes back to the values at Edit, not to newer stored ones', () => {
    const state = run(typedThenRenamedElsewhere({ lastName: 'Typed' }), { type: 'undo' });
    expect(state.values.basic.firstName).toBe('Nova');
    expect(state.values.basic.lastName).toBe('Star');
  });

  it('Cancel restores the stored member values and leaves editing', () => {
    const state = run(typedThenRenamedElsewhere({ username: 'orion' }), { type: 'cancel' });
    expect(state.editing).toBeNull();
    expect(state.snapshot).toBeNull();
    expect(state.values.basic).toEqual(renamed.basic);
  });

  it('Save leaves editing on success with the saved values', () => {
    const saved = valuesFromUser({ ...member, username: 'orion' }, 'dark');
    const state = run(
      start(),
      ...typeInto('basic', { username: 'orion' }),
      { type: 'saveStart' },
      { type: 'saved', stored: saved },
    );
    expect(state.editing).toBeNull();
    expect(state.saving).toBe(false);
    expect(state.values).toEqual(saved);
    expect(state.stored).toEqual(saved);
  });

  it('a failed Save stays editing with the draft and the error', () => {
    const state = run(
      start(),
      ...typeInto('basic', { username: 'taken1' }),
      { type: 'saveStart' },
      { type: 'saveFailed', errors: { username: 'Username already taken.' } },
    );
    expect(state.editing).toBe('basic');
    expect(state.saving).toBe(false);
    expect(state.values.basic.username).toBe('taken1');
    expect(state.errors).toEqual({ username: 'Username already taken.' });
  });

  it('ignores typing, Undo and Cancel while saving', () => {
    const state = run(
      start(),
      ...typeInto('referral', { referral: 'NEW' }),
      { type: 'saveStart' },
      { type: 'change', section: 'referral', patch: { referral: 'LATER' } },
      { type: 'undo' },
      { type: 'cancel' },
    );
    expect(state.editing).toBe('referral');
    expect(state.values.referral.referral).toBe('NEW');
  });

  it('typing in a field clears that field’s error only', () => {
    const state = run(
      start(),
      { type: 'edit', section: 'basic' },
      { type: 'invalid', errors: { username: 'bad', email: 'bad too' } },
      { type: 'change', section: 'basic', patch: { username: 'fixed' } },
    );
    expect(state.errors).toEqual({ email: 'bad too' });
  });

  it('a change made elsewhere updates the viewing sections and keeps the draft being edited', () => {
    const elsewhere = valuesFromUser({ ...member, username: 'renamed', referral: 'R2' }, 'dark');
    const state = run(start(), ...typeInto('referral', { referral: 'DRAFT' }), {
      type: 'sync',
      stored: elsewhere,
    });
    expect(state.values.basic.username).toBe('renamed');
    expect(state.values.referral.referral).toBe('DRAFT');
    expect(state.stored.referral.referral).toBe('R2');
  });
});

describe('the interest cap', () => {
  const full = SETTINGS_INTERESTS.slice(0, 24);
  const withExtra = valuesFromUser({ ...member, interests: ['Pets', ...full] }, 'dark');

  it('counts the extra interests the member already has', () =>
    expect(withExtra.profile.interests).toHaveLength(25));

  it('ignores a 26th interest', () => {
    const last = SETTINGS_INTERESTS[24] ?? '';
    const state = run(
      initialState(withExtra),
      { type: 'edit', section: 'profile' },
      { type: 'toggleInterest', interest: last },
    );
    expect(state.values.profile.interests).toHaveLength(25);
    expect(state.values.profile.interests).not.toContain(last);
  });

  it('lets one go and then takes another', () => {
    const last = SETTINGS_INTERESTS[24] ?? '';
    const state = run(
      initialState(withExtra),
      { type: 'edit', section: 'profile' },
      { type: 'toggleInterest', interest: 'Pets' },
      { type: 'toggleInterest', interest: last },
    );
    expect(state.values.profile.interests).toHaveLength(25);
    expect(state.values.profile.interests).toContain(last);
    expect(state.values.profile.interests).not.toContain('Pets');
  });

  it('ignores toggles outside the Profile section’s editing', () => {
    const state = run(start(), { type: 'toggleInterest', interest: 'Art' });
    expect(state.values.profile.interests).toEqual(['Tech', 'Pets']);
  });
});
