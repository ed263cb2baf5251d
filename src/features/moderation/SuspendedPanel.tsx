import { type RefObject, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { Avatar } from '../../components/Avatar.tsx';
import { Dialog, DialogActions } from '../../components/Dialog.tsx';
import { breakable } from '../../components/breakable.tsx';
import type { SuspendedMember } from '../../contracts/safety.ts';
import { useNow } from '../notifications/hooks.ts';
import { loadErrorMessage, relativeTime } from '../notifications/logic.ts';
import { useNeedsNetwork } from '../offline/store.ts';
import { memberBusyKey, useModeration } from './store.ts';

/** Relative times are read again this often. */
const CLOCK_MS = 30_000;

/**
 * The `Suspended` tab (docs/product.md "Moderation"): suspended members, latest first, with the
 * reason they were given and when, each with `Lift suspension`, which asks first.
 */
export function SuspendedPanel({ returnFocus }: { returnFocus: RefObject<HTMLElement | null> }) {
  const suspended = useModeration((state) => state.suspended);
  const [lifting, setLifting] = useState<SuspendedMember | null>(null);
  /** Where focus goes once the dialog closes: its opener, or the list once the member left it. */
  const back = useRef<HTMLElement | null>(null);
  const now = useNow(true, CLOCK_MS);
  const needsNetwork = useNeedsNetwork();
  const busy = useModeration((state) => state.busy);

  if (!suspended || suspended.status === 'loading') return <p role="status">Loading…</p>;
  if (suspended.status === 'error')
    return (
      <p className="form-error" role="alert">
        Error: {loadErrorMessage(suspended.error)}
      </p>
    );
  return (
    <>
      {suspended.members.length === 0 ? (
        <p className="moderation-empty">No suspended members.</p>
      ) : (
        <ul className="report-list" aria-label="Suspended members">
          {suspended.members.map((member) => (
            <li key={member.id} className="report" aria-label={`@${member.username}`}>
              <div className="report-item">
                <Avatar src={member.profileImage} username={member.username} size={56} decorative />
                <p className="report-subject">
                  <Link to={`/profile/${encodeURIComponent(member.username)}`}>
                    {breakable(`@${member.username}`)}
                  </Link>
                </p>
              </div>
              <div className="report-details">
                <p className="report-note">{member.reason}</p>
                <p className="report-meta">
                  Suspended{' '}
                  <time
                    dateTime={member.suspendedAt}
                    title={new Date(member.suspendedAt).toLocaleString()}
                  >
                    {relativeTime(member.suspendedAt, now)}
                  </time>
                </p>
                <div className="report-actions">
                  <button
                    type="button"
                    className="button"
                    {...needsNetwork(Boolean(busy[memberBusyKey(member)]))}
                    onClick={(event) => {
                      back.current = event.currentTarget;
                      setLifting(member);
                    }}
                  >
                    Lift suspension
                  </button>
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
      <LiftDialog
        member={lifting}
        onClose={() => setLifting(null)}
        onLifted={() => {
          back.current = returnFocus.current;
        }}
        returnFocus={back}
      />
    </>
  );
}

function LiftDialog({
  member,
  onClose,
  onLifted,
  returnFocus,
}: {
  member: SuspendedMember | null;
  onClose: () => void;
  onLifted: () => void;
  returnFocus: RefObject<HTMLElement | null>;
}) {
  const lift = useModeration((state) => state.lift);
  const busy = useModeration((state) =>
    member ? Boolean(state.busy[memberBusyKey(member)]) : false,
  );
  const needsNetwork = useNeedsNetwork();
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    onClose();
  };
  return (
    <Dialog
      open={member !== null}
      title={`Lift the suspension of @${member?.username ?? ''}?`}
      onClose={close}
      returnFocus={returnFocus}
    >
      <p>They can log in again. Nothing the suspension ended comes back.</p>
      <DialogActions
        error={error}
        onCancel={close}
        confirm={{
          label: 'Lift suspension',
          busy,
          ...needsNetwork(busy),
          onClick: () => {
            if (!member) return;
            void lift(member).then((outcome) => {
              // Unreached, the dialog stays to be sent again; otherwise the page says what happened.
              if (outcome === 'unreachable') {
                setError(useModeration.getState().notice);
                return;
              }
              onLifted();
              close();
            });
          },
        }}
      />
    </Dialog>
  );
}
