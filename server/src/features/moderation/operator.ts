/**
 * The operator's command, `npm run moderator` (server/src/moderator.ts): who moderates, and lifting
 * a suspension. Apart from the service so the command loads the database code alone.
 */
import type { Db } from '../../db/index.ts';
import type { UserRow } from '../../db/schema.ts';
import { memberByUsername } from '../../members/lookups.ts';
import * as repo from './repository.ts';

export interface OperatorDeps {
  db: Db;
  now?: () => Date;
}

const stamp = (deps: OperatorDeps) => (deps.now ? deps.now() : new Date()).toISOString();

/** Makes the member a moderator, or no longer one; answers their row, or undefined when unknown. */
export async function setModerator(
  deps: OperatorDeps,
  username: string,
  on: boolean,
): Promise<UserRow | undefined> {
  const member = await memberByUsername(deps.db, username);
  if (!member) return undefined;
  await repo.setModerator(deps.db, member.id, on, stamp(deps));
  return member;
}

/**
 * Lifts a suspension: the member can log in again. Answers their row as it was (its
 * `suspended_at` says whether they were suspended), or undefined when unknown.
 */
export async function unsuspend(
  deps: OperatorDeps,
  username: string,
): Promise<UserRow | undefined> {
  const member = await memberByUsername(deps.db, username);
  if (!member) return undefined;
  await repo.unsuspendMember(deps.db, member.id, stamp(deps));
  return member;
}

/** Moderators and suspended members, by username. */
export function moderatorsAndSuspended(deps: OperatorDeps): Promise<repo.MemberLine[]> {
  return repo.moderatorsAndSuspended(deps.db);
}
