import { useEffect, useState } from 'react';
import { PROFILE_TOAST_MS } from '../../lib/constants.ts';
import { Dialog, DialogActions } from '../../components/Dialog.tsx';
import { Toast } from '../../components/Toast.tsx';
import { useToast } from '../../components/useToast.ts';
import { useNeedsNetwork } from '../offline/store.ts';
import { WaitingMark } from '../offline/WaitingMark.tsx';
import type { FriendAction } from './api.ts';
import { FriendActions } from './FriendActions.tsx';
import { PROFILE_TOASTS } from './messages.ts';
import { useFriends } from './store.ts';
import { useAnswerWaiting } from './waiting.ts';
import './FriendButtons.css';

/** Friend buttons on someone else's profile (docs/product.md "Profile" table). */
export function FriendButtons({ userId, username }: { userId: string; username: string }) {
  const status = useFriends((state) => state.statuses[userId]?.status);
  const busy = useFriends((state) => Boolean(state.busy[userId]));
  const show = useFriends((state) => state.show);
  const act = useFriends((state) => state.act);
  const [toast, showToast] = useToast(PROFILE_TOAST_MS);
  const [confirming, setConfirming] = useState(false);
  const needsNetwork = useNeedsNetwork();
  const waiting = useAnswerWaiting(userId);

  // Read now, and again whenever an event about this member may have been missed.
  useEffect(() => show(userId), [show, userId]);

  const run = async (action: FriendAction) => {
    const outcome = await act(action, userId, username);
    // A change kept to send when back says so with its mark, not with a toast of success.
    if (outcome === 'queued') return;
    const text = outcome === 'sent' ? PROFILE_TOASTS[action].ok : PROFILE_TOASTS[action].failed;
    if (text) showToast(text);
  };

  return (
    <div className="friend-buttons" aria-busy={busy || undefined}>
      <FriendActions
        status={status ?? 'loading'}
        busy={busy}
        onAct={(action) => void run(action)}
        onUnfriend={() => setConfirming(true)}
      />
      {waiting && <WaitingMark />}
      <Dialog
        open={confirming}
        title={`Unfriend @${username}?`}
        onClose={() => setConfirming(false)}
      >
        <p>You can add them again later. Your messages are not deleted.</p>
        <DialogActions
          onCancel={() => setConfirming(false)}
          confirm={{
            label: 'Confirm Unfriend',
            danger: true,
            ...needsNetwork(),
            onClick: () => {
              setConfirming(false);
              void run('unfriend');
            },
          }}
        />
      </Dialog>
      <Toast message={toast} />
    </div>
  );
}
