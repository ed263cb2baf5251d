/**
 * Tells the service worker (through IndexedDB) who the current member is, so it saves and serves
 * only their copies. Their copies go when their session ends, with the rest of the member's state
 * (src/lib/memberState.ts): at logout here or in another tab, or when the server says nobody is
 * signed in. A server that cannot be reached ends nothing: the saved copies are what the member
 * sees offline. A tab that starts with nobody signed in ends whoever the copies were saved for.
 */
import { useSession } from '../auth/store.ts';
import type { CurrentUser } from '../../contracts/readers/user.ts';
import { DB_NAME } from '../../lib/constants.ts';
import { joinMemberState } from '../../lib/memberState.ts';

/** The saved copies' database: its code loads when there is a member or a database to end. */
const savedCopies = () => import('../../lib/idb.ts');

/** Whether copies may be saved here: a browser that lists its databases without Orbit's has none. */
async function mayHoldCopies(): Promise<boolean> {
  if (typeof indexedDB === 'undefined') return false;
  if (typeof indexedDB.databases !== 'function') return true;
  const databases = await indexedDB.databases().catch(() => null);
  return !databases || databases.some((database) => database.name === DB_NAME);
}

interface SessionView {
  status: string;
  user: CurrentUser | null;
  error: string | null;
}

function follow(state: SessionView, previous: SessionView | null) {
  if (state.status === 'signedIn' && state.user) {
    if (previous?.status !== 'signedIn' || previous.user?.id !== state.user.id) {
      const { id } = state.user;
      void savedCopies().then((idb) => idb.setCurrentMember(id));
    }
  } else if (
    state.status === 'signedOut' &&
    state.error === null &&
    previous?.status !== 'signedOut' &&
    !previous?.user
  ) {
    void mayHoldCopies().then(async (held) => {
      if (held) await (await savedCopies()).endCurrentMember();
    });
  }
}

/** Starts following the session; answers a function that stops. */
export function connectOfflineSession(): () => void {
  follow(useSession.getState(), null);
  const unsubscribe = useSession.subscribe((state, previous) => follow(state, previous));
  const leave = joinMemberState('offline copies', {
    reset: ({ memberId, ended }) =>
      ended ? savedCopies().then((idb) => idb.wipeMember(memberId)) : undefined,
  });
  return () => {
    unsubscribe();
    leave();
  };
}
