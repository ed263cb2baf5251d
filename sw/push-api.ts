/// <reference lib="webworker" />
import type { PushPayload } from '../src/contracts/pushPayload.ts';

export type FriendAnswer = 'accept' | 'decline';

/**
 * Where the friend API lives, seen from the worker: the build setting when it names a host (as the
 * page does), else the worker's own origin ('self' and a production build's default).
 */
export function workerApiOrigin(setting: string | undefined, ownOrigin: string): string {
  const chosen = (setting ?? '').trim();
  if (!chosen || chosen === 'self') return ownOrigin;
  return chosen.replace(/\/+$/, '');
}

/**
 * Answers a friend request with the member's session cookie (the worker has no bearer token). The
 * browser sends the app's origin with it, which the server's origin check accepts.
 */
export async function answerFriendRequest(
  fetcher: typeof fetch,
  apiOrigin: string,
  payload: PushPayload,
  action: FriendAnswer,
): Promise<boolean> {
  try {
    const response = await fetcher(`${apiOrigin}/api/users/friends/${action}`, {
      method: 'POST',
      credentials: 'include',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify({ fromUserId: payload.actor.id, username: payload.actor.username }),
    });
    return response.ok;
  } catch {
    return false;
  }
}
