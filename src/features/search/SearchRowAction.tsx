import { useState } from 'react';
import type { FriendStatus } from '../../contracts/friends.ts';
import { useFriends } from '../friends/store.ts';
import { useNeedsNetwork } from '../offline/store.ts';

export const SEND_FAILED = 'Couldn’t send request.';
export const CANCEL_FAILED = 'Couldn’t cancel request.';

interface Props {
  userId: string;
  username: string;
  status: FriendStatus;
}

/** The action beside a search result (docs/product.md "Header search"). */
export function SearchRowAction({ userId, username, status }: Props) {
  const act = useFriends((state) => state.act);
  const busy = useFriends((state) => Boolean(state.busy[userId]));
  const [canceling, setCanceling] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const needsNetwork = useNeedsNetwork();

  const run = async (action: 'request' | 'cancel' | 'accept' | 'decline') => {
    setFailure(null);
    if (action === 'cancel') setCanceling(true);
    const ok = await act(action, userId, username);
    setCanceling(false);
    // Accept and decline failures are swallowed; the status simply reverts (docs/product.md "Errors").
    if (!ok && action === 'request') setFailure(SEND_FAILED);
    if (!ok && action === 'cancel') setFailure(CANCEL_FAILED);
  };

  const stop = (event: React.SyntheticEvent) => event.stopPropagation();
  let control: React.ReactNode = null;
  switch (status) {
    case 'self':
      control = null;
      break;
    case 'friends':
      control = <span className="badge">Friends</span>;
      break;
    case 'pending':
      control = (
        <button
          type="button"
          className="button small"
          {...needsNetwork(busy)}
          onClick={() => void run('cancel')}
        >
          {canceling ? 'Canceling…' : 'Cancel'}
        </button>
      );
      break;
    case 'incoming':
      control = (
        <>
          <button
            type="button"
            className="button small primary"
            {...needsNetwork(busy)}
            onClick={() => void run('accept')}
          >
            Accept
          </button>
          <button
            type="button"
            className="button small"
            {...needsNetwork(busy)}
            onClick={() => void run('decline')}
          >
            Decline
          </button>
        </>
      );
      break;
    case 'none':
      control = (
        <button
          type="button"
          className="button small primary"
          {...needsNetwork(busy)}
          onClick={() => void run('request')}
        >
          Add Friend
        </button>
      );
      break;
  }
  return (
    <div className="search-row-action" onClick={stop} onKeyDown={stop} role="presentation">
      {control}
      {failure && (
        <span className="search-row-error" role="alert">
          {failure}
        </span>
      )}
    </div>
  );
}
