import { useRef } from 'react';
import { Toast } from '../../components/Toast.tsx';
import { useSession } from '../auth/store.ts';
import type { CurrentUser } from '../../contracts/readers/user.ts';
import { BasicInfoFields } from './BasicInfoFields.tsx';
import { BlockedMembers } from './BlockedMembers.tsx';
import { DangerZone } from './DangerZone.tsx';
import { DownloadData } from './DownloadData.tsx';
import { ProfileFields } from './ProfileFields.tsx';
import { ReferralCode, ReferralFields } from './ReferralFields.tsx';
import { SAVE_MESSAGES } from './saveError.ts';
import { SectionCard, SettingsPanel } from './SectionCard.tsx';
import { SecurityFields } from './SecurityFields.tsx';
import { SECTIONS, type SectionId, type SettingsValues } from './settingsState.ts';
import { MORE_SECTIONS, type MoreSectionId, SettingsNav } from './SettingsNav.tsx';
import { useSettings } from './useSettings.ts';
import { WaitingToSend } from './WaitingToSend.tsx';
import './SettingsPage.css';

const LABELS = Object.fromEntries(SECTIONS.map(({ id, label }) => [id, label])) as Record<
  SectionId,
  string
>;
const MORE_LABELS = Object.fromEntries(MORE_SECTIONS.map(({ id, label }) => [id, label])) as Record<
  MoreSectionId,
  string
>;

function SettingsForm({ user }: { user: CurrentUser }) {
  const root = useRef<HTMLElement>(null);
  const { state, dispatch, availability, save, toast, showToast, loadFailed } = useSettings(
    user,
    root,
  );
  const { values, errors, editing, saving } = state;
  const card = (id: SectionId) => ({
    id,
    label: LABELS[id],
    editing,
    saving,
    error: editing === id ? errors.form : undefined,
    onEdit: () => dispatch({ type: 'edit', section: id }),
    onUndo: () => dispatch({ type: 'undo' }),
    onCancel: () => dispatch({ type: 'cancel' }),
    onSave: () => void save(),
  });
  /** What every section's fields take: its values, its errors and a change of its own. */
  const fields = <S extends SectionId>(section: S) => ({
    values: values[section],
    // Two sections have a `currentPassword`: the errors belong to the one being edited.
    errors: editing === section ? errors : {},
    onChange: (patch: Partial<SettingsValues[S]>) => dispatch({ type: 'change', section, patch }),
  });
  return (
    <main className="settings-page" id="main" ref={root}>
      <h1>Settings</h1>
      {loadFailed && (
        <p className="form-error" role="alert">
          {SAVE_MESSAGES.loadFailed}
        </p>
      )}
      <p className="settings-hint">
        Press <kbd>Ctrl</kbd>/<kbd>⌘</kbd>+<kbd>S</kbd> to save the section you are editing.
      </p>
      <div className="settings-layout">
        <SettingsNav editing={editing} />
        <div className="settings-sections">
          <SectionCard {...card('basic')}>
            <BasicInfoFields
              {...fields('basic')}
              storedEmail={state.stored.basic.email}
              birthday={user.birthday}
              availability={availability}
            />
          </SectionCard>
          <SectionCard {...card('security')}>
            <SecurityFields {...fields('security')} hasQuestion={Boolean(user.securityQuestion)} />
          </SectionCard>
          <SectionCard {...card('profile')}>
            <ProfileFields
              {...fields('profile')}
              current={{
                profileImage: user.profileImage,
                username: user.username,
              }}
              onToggleInterest={(interest) => dispatch({ type: 'toggleInterest', interest })}
              heldInterests={state.stored.profile.interests}
            />
          </SectionCard>
          <SectionCard
            {...card('referral')}
            lead={<ReferralCode code={user.referralCode} onCopied={showToast} />}
          >
            <ReferralFields {...fields('referral')} />
          </SectionCard>
          <SettingsPanel id="outbox" label={MORE_LABELS.outbox}>
            <WaitingToSend onToast={showToast} />
          </SettingsPanel>
          <SettingsPanel id="blocked" label={MORE_LABELS.blocked}>
            <BlockedMembers onToast={showToast} />
          </SettingsPanel>
          <SettingsPanel id="data" label={MORE_LABELS.data}>
            <DownloadData userId={user.id} username={user.username} />
          </SettingsPanel>
          <SettingsPanel id="danger" label={MORE_LABELS.danger} className="settings-danger">
            <DangerZone user={user} />
          </SettingsPanel>
        </div>
      </div>
      <Toast message={toast} />
    </main>
  );
}

/**
 * /settings: the member's account in four sections (docs/product.md "Settings"), then what waits
 * to be sent from this device (docs/product.md "Offline, install and push"), blocked members,
 * their data and deleting the account (docs/product.md "Safety").
 */
export function SettingsPage() {
  const user = useSession((state) => state.user);
  return user ? <SettingsForm user={user} /> : null;
}
