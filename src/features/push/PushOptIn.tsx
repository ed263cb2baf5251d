import { useId } from 'react';
import { NetworkButton } from '../offline/NetworkButton.tsx';
import { type PushStatus, usePush } from './store.ts';
import './push.css';

const HINTS: Partial<Record<PushStatus, string>> = {
  unsupported: "This browser can't show notifications from Orbit.",
  'ios-needs-install':
    'To get notifications on iPhone or iPad, add Orbit to your Home Screen first: tap Share, then Add to Home Screen.',
  denied:
    "Notifications are blocked for Orbit. To turn them on, allow notifications for this site in your browser's site settings, then reload the page.",
};

function PushButton({ status }: { status: 'default' | 'enabled' }) {
  const working = usePush((state) => state.working);
  const turnOn = usePush((state) => state.turnOn);
  const turnOff = usePush((state) => state.turnOff);
  return (
    <NetworkButton
      className={status === 'default' ? 'button primary' : 'button'}
      disabled={working}
      aria-busy={working}
      onClick={() => void (status === 'default' ? turnOn() : turnOff())}
    >
      {status === 'default' ? 'Turn on notifications' : 'Turn off notifications'}
    </NetworkButton>
  );
}

/** Push notifications for this device, from the bell dropdown and the full-screen panel. */
export function PushOptIn() {
  const status = usePush((state) => state.status);
  const error = usePush((state) => state.error);
  const heading = useId();
  if (status === 'checking') return null;
  const hint = HINTS[status];
  return (
    <section className="push-opt-in" aria-labelledby={heading}>
      <h3 id={heading} className="push-opt-in-title">
        Push notifications
      </h3>
      {status === 'default' || status === 'enabled' ? (
        <PushButton status={status} />
      ) : (
        <p className="push-opt-in-hint">{hint}</p>
      )}
      {error && (
        <p className="push-opt-in-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
