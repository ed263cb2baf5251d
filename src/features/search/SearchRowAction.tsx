import { useState } from 'react';
import type { FriendStatus } from '../../contracts/friends.ts';
import type { FriendAction } from '../friends/api.ts';
import { FriendActions } from '../friends/FriendActions.tsx';
import { SEARCH_FAILURES } from '../friends/messages.ts';
import { useFriends } from '../friends/store.ts';

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

  const run = async (action: FriendAction) => {
    setFailure(null);
    if (action === 'cancel') setCanceling(true);
    const outcome = await act(action, userId, username);
    setCanceling(false);
    // Accept and decline failures are swallowed; the status simply reverts (docs/product.md "Errors").
    if (outcome === 'failed') setFailure(SEARCH_FAILURES[action] ?? null);
  };

  const stop = (event: React.SyntheticEvent) => event.stopPropagation();
  return (
    <div className="search-row-action" onClick={stop} onKeyDown={stop} role="presentation">
      <FriendActions
        status={status}
        busy={busy}
        onAct={(action) => void run(action)}
        small
        addLabel="Add Friend"
        canceling={canceling}
      />
      {failure && (
        <span className="search-row-error" role="alert">
          {failure}
        </span>
      )}
    </div>
  );
}
