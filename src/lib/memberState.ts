/**
 * Everything the tab holds for the signed-in member, emptied in one call when the member leaves
 * (docs/architecture.md "Client state", docs/decisions.md "One reset"). Each store of member state
 * joins when its module loads; src/features/auth/store.ts calls `resetMemberState` whenever the
 * signed-in member stops being the one signed in (logout here or in another tab, the account
 * deleted, a suspension, a 401 that ended the session), and `leaveMemberState` at a logout from
 * this tab while the session still holds.
 */

/** Who left, and whether the server ended their session (not only that it could not be reached). */
export interface Leaving {
  memberId: string;
  ended: boolean;
}

export interface MemberState {
  /** Empties the store; may answer a promise (IndexedDB), which the reset waits for. */
  reset: (leaving: Leaving) => unknown;
  /** At a logout from this tab, before the session ends (the push device forgotten). */
  beforeLogout?: (memberId: string) => unknown;
}

const stores = new Map<string, MemberState>();
/** The latest reset, done or under way. */
let latest: Promise<unknown> = Promise.resolve();
/** A logout waits no longer for the stores' work (no network must not keep the member in). */
const LEAVE_MAX_MS = 3_000;

/** Joins the registry under `name` (one entry per name); answers the function that leaves it. */
export function joinMemberState(name: string, store: MemberState): () => void {
  stores.set(name, store);
  return () => {
    if (stores.get(name) === store) stores.delete(name);
  };
}

/** Runs `step` for every store, each on its own: one that throws or rejects is logged. */
function everyStore(step: (store: MemberState) => unknown): Promise<unknown> {
  return Promise.all(
    [...stores].map(async ([name, store]) => {
      try {
        await step(store);
      } catch (error) {
        console.warn(`Could not empty ${name}`, error);
      }
    }),
  );
}

/** The stores' work before a logout from this tab ends the session; at most 3 s. */
export function leaveMemberState(memberId: string): Promise<unknown> {
  return Promise.race([
    everyStore((store) => store.beforeLogout?.(memberId)),
    new Promise((resolve) => setTimeout(resolve, LEAVE_MAX_MS)),
  ]);
}

/** Empties every store; the synchronous ones before this returns. Resolves once all are empty. */
export function resetMemberState(leaving: Leaving): Promise<unknown> {
  return (latest = everyStore((store) => store.reset(leaving)));
}

/** Resolves once the latest reset has finished (logout answers after it). */
export function memberStateSettled(): Promise<unknown> {
  return latest;
}
