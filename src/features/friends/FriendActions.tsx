import { FRIEND_ENDPOINTS } from '../../contracts/endpoints/friends.ts';
import type { FriendStatus } from '../../contracts/friends.ts';
import { useNeedsNetwork } from '../offline/store.ts';
import type { FriendAction } from './api.ts';

interface FriendActionsProps {
  /** The relation to the other member; `loading` and `self` show nothing. */
  status: FriendStatus | 'loading';
  /** A call for this member is running: the buttons wait (docs/product.md "Friends"). */
  busy?: boolean;
  onAct: (action: FriendAction) => void;
  /** Buttons in a dense row (search results). */
  small?: boolean;
  /** What Add reads (`Add` on the profile, `Add Friend` in search). */
  addLabel?: string;
  /** Canceling a sent request is running: Cancel reads `Canceling…`. */
  canceling?: boolean;
  /** Friends: an Unfriend button that calls this (the profile asks first), else the `Friends` badge. */
  onUnfriend?: () => void;
}

/**
 * The friend actions for one member, wherever they are offered: the profile, a search row, a
 * notification and a request row (docs/product.md "Profile", "Header search", "Notification bell").
 */
export function FriendActions({
  status,
  busy = false,
  onAct,
  small = false,
  addLabel = 'Add',
  canceling = false,
  onUnfriend,
}: FriendActionsProps) {
  const needsNetwork = useNeedsNetwork();
  // Each button names its call: one the offline outbox keeps stays enabled offline.
  const button = (label: string, action: FriendAction, onClick: () => void, primary = false) => (
    <button
      type="button"
      className={['button', small && 'small', primary && 'primary'].filter(Boolean).join(' ')}
      {...needsNetwork(busy, FRIEND_ENDPOINTS[action])}
      onClick={onClick}
    >
      {label}
    </button>
  );
  const act = (action: FriendAction) => () => onAct(action);
  // The status already reads `none` while the cancel runs: the button says what is happening.
  if (canceling) return button('Canceling…', 'cancel', act('cancel'));
  switch (status) {
    case 'none':
      return button(addLabel, 'request', act('request'), true);
    case 'incoming':
      return (
        <>
          {button('Accept', 'accept', act('accept'), true)}
          {button('Decline', 'decline', act('decline'))}
        </>
      );
    case 'pending':
      return button('Cancel', 'cancel', act('cancel'));
    case 'friends':
      return onUnfriend ? (
        button('Unfriend', 'unfriend', onUnfriend)
      ) : (
        <span className="badge">Friends</span>
      );
    case 'self':
    case 'loading':
      return null;
  }
}
