/**
 * Everything the tab holds for the signed-in member, emptied in one call when the member leaves
 * (docs/architecture.md "Client state", docs/decisions.md "One reset"). Each store of member state
 * joins when its module loads; src/features/auth/store.ts calls `resetMemberState` whenever the
 * signed-in member stops being the one signed in: logout here or in another tab, the account
 * deleted, a suspension, a 401 that ended the session.
 */

/** Who left, and whether the server ended their session (not only that it could not be reached). */
export interface Leaving {
  memberId: string;
  ended: boolean;
}

/** Empties one store; may answer a promise (IndexedDB), which the reset waits for. */
export type MemberReset = (leaving: Leaving) => unknown;

const stores = new Map<string, MemberReset>();
/** The latest reset, done or under way. */
let latest: Promise<void> = Promise.resolve();

/** Joins the registry under `name` (one entry per name); answers the function that leaves it. */
export function joinMemberState(name: string, reset: MemberReset): () => void {
  stores.set(name, reset);
  return () => {
    if (stores.get(name) === reset) stores.delete(name);
  };
}

/** The names of the stores that have joined, for tests and the console. */
export function memberStateNames(): string[] {
  return [...stores.keys()];
}

/**
 * Runs every store's reset, each on its own: one that throws or rejects is logged and the others
 * still run. Resolves once every reset has finished.
 */
export function resetMemberState(leaving: Leaving): Promise<void> {
  const runs = [...stores].map(async ([name, reset]) => {
    try {
      await reset(leaving);
    } catch (error) {
      console.warn(`Could not empty the ${name} state`, error);
    }
  });
  latest = Promise.all([latest, ...runs]).then(() => undefined);
  return latest;
}

/** Resolves once every reset begun so far has finished (logout answers after it). */
export function memberStateSettled(): Promise<void> {
  return latest;
}
