/**
 * What a write waiting in the offline outbox does, in the member's words, for Settings → Waiting
 * to send (docs/product.md "Offline, install and push"). A friend answer's body names the other
 * member by id: they are named as the page knows them, else in neutral words.
 */
import { FRIEND_TARGET_FIELD } from '../../contracts/friendsInput.ts';
import type { OutboxItem } from '../../lib/outboxQueue.ts';
import { useNotifications } from '../notifications/store.ts';
import { useProfiles } from '../profile/store.ts';

/** An item of another kind than those the outbox keeps (an older worker's). */
const A_CHANGE = 'A change';

type Body = Record<string, unknown>;

const quoted = (text: string) => `“${text}”`;

function reaction(body: Body): string | null {
  for (const [field, did, undo] of [
    ['likes', 'Like a photo', 'Remove your like'],
    ['dislikes', 'Dislike a photo', 'Remove your dislike'],
  ] as const) {
    const value = body[field];
    if (value === true) return did;
    if (value === false) return undo;
    if (Array.isArray(value)) return 'React to a photo';
  }
  return null;
}

function photoChange(body: Body): string {
  const react = reaction(body);
  if (react) return react;
  if (typeof body.caption === 'string')
    return body.caption.trim() ? `Caption: ${quoted(body.caption)}` : 'Remove a caption';
  if (typeof body.folder === 'string') return `Move a photo to ${quoted(body.folder)}`;
  return 'Edit a photo';
}

/** A member's username as the page knows it: from the notifications and the profiles read. */
function knownUsername(userId: string): string | null {
  const { items, incoming, outgoing } = useNotifications.getState();
  for (const item of items) if (item.actor?.id === userId) return item.actor.username;
  for (const request of [...incoming, ...outgoing])
    if (request.user.id === userId) return request.user.username;
  for (const entry of Object.values(useProfiles.getState().profiles)) {
    const user = entry.value?.user;
    if (user?.id === userId) return user.username;
  }
  return null;
}

const FRIEND_WORDS = {
  accept: ['Accept the friend request from', 'Accept a friend request'],
  decline: ['Decline the friend request from', 'Decline a friend request'],
  cancel: ['Cancel your friend request to', 'Cancel a friend request'],
} as const;

function friendAnswer(action: keyof typeof FRIEND_WORDS, body: Body): string {
  const id = body[FRIEND_TARGET_FIELD[action]];
  const username =
    typeof body.username === 'string' && body.username
      ? body.username
      : typeof id === 'string'
        ? knownUsername(id)
        : null;
  const [named, unnamed] = FRIEND_WORDS[action];
  return username ? `${named} @${username}` : unnamed;
}

async function upload(item: OutboxItem): Promise<string> {
  const form = await item.form?.().catch(() => null);
  const file = form?.get('image');
  const name = file instanceof Blob && 'name' in file && file.name ? file.name : 'a photo';
  const folder = form?.get('folder');
  return typeof folder === 'string' && folder ? `Upload ${name} to ${folder}` : `Upload ${name}`;
}

/** What the item does, e.g. `Like a photo`, `Caption: “Sea at dusk”`, `Upload sea.jpg to Trips`. */
export async function outboxItemText(item: OutboxItem): Promise<string> {
  const path = item.path.split('?')[0] ?? '';
  const body = (item.json && typeof item.json === 'object' ? item.json : {}) as Body;
  if (item.method === 'POST' && path === '/api/gallery') return upload(item);
  if (item.method === 'PATCH' && path.startsWith('/api/gallery/')) return photoChange(body);
  const friend = /^\/api\/users\/friends\/(accept|decline|cancel)$/.exec(path)?.[1];
  if (item.method === 'POST' && friend)
    return friendAnswer(friend as keyof typeof FRIEND_WORDS, body);
  return A_CHANGE;
}
