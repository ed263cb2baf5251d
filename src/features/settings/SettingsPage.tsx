import { useSession } from '../auth/store.ts';
import './SettingsPage.css';

/** The member's account at a glance; editing comes section by section. */
export function SettingsPage() {
  const user = useSession((state) => state.user);
  if (!user) return null;
  const rows: [string, string][] = [
    ['Username', user.username],
    ['Name', user.fullName || '—'],
    ['Email', user.email],
    ['Birthday', user.birthday],
    ['Referral code', user.referralCode],
  ];
  return (
    <main className="settings-page" id="main">
      <h1>Settings</h1>
      <dl className="settings-summary">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </main>
  );
}
