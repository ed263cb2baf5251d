/**
 * What a member's download holds (docs/product.md "Leaving"), as zip entries opened in order: the
 * README, the avatar, one JSON file per kind of data (each list read a page at a time), every
 * photo at display size in gallery order, and the index of the photos last.
 */
import {
  DELETED_MEMBER,
  REPORT_REASON_LABELS,
  type ReportReason,
} from '../../../../src/contracts/safety.ts';
import type { Db } from '../../db/index.ts';
import { displayText } from '../../../../src/contracts/validation.ts';
import { jsonChunks } from '../../lib/jsonStream.ts';
import { type ZipEntry, generatedEntry, textEntry } from '../../lib/zipStream.ts';
import { type Media, galleryKey } from '../../media/index.ts';
import { userRowToUser } from '../../members/mapping.ts';
import { memberById } from '../../members/lookups.ts';
import * as pages from './exportRepository.ts';
import { DOWNLOAD_README } from './readme.ts';

export interface DownloadDeps {
  db: Db;
  media: Media;
}

async function* mapped<Row, Out>(rows: AsyncIterable<Row>, map: (row: Row) => Out) {
  for await (const row of rows) yield map(row);
}

async function* concat<T>(...lists: AsyncIterable<T>[]) {
  for (const list of lists) yield* list;
}

/** A picture of the store as an entry; a picture the store does not have is left out. */
function pictureEntry(
  media: Media,
  name: string,
  key: string,
  mtime: Date,
  found: () => void,
): ZipEntry {
  return {
    name,
    compress: false,
    mtime,
    async open() {
      const read = await media.store.get(key);
      if (read.status !== 'found') return undefined;
      found();
      return read.body;
    },
  };
}

function friendsFile(db: Db, userId: string) {
  const friend = (row: pages.RelationRow) => ({
    id: row.other_id,
    username: row.other_username,
    since: row.updated_at,
  });
  const request = (row: pages.RelationRow) => ({
    id: row.other_id,
    username: row.other_username,
    sentAt: row.created_at,
  });
  return jsonChunks({
    friends: mapped(
      concat(
        pages.relations(db, userId, 'requester_id', 'accepted'),
        pages.relations(db, userId, 'addressee_id', 'accepted'),
      ),
      friend,
    ),
    incoming: mapped(pages.relations(db, userId, 'addressee_id', 'pending'), request),
    outgoing: mapped(pages.relations(db, userId, 'requester_id', 'pending'), request),
  });
}

function notificationsFile(db: Db, userId: string) {
  const rows = pages.notifications(db, userId);
  return jsonChunks({
    notifications: mapped(rows, (row) => ({
      id: String(row.id),
      type: row.type,
      text: row.actor_username ? `@${row.actor_username}${row.message}` : row.message,
      from: row.actor_username,
      link: row.link,
      read: row.read_at !== null,
      readAt: row.read_at,
      createdAt: row.created_at,
    })),
  });
}

function reactionsFile(db: Db, userId: string) {
  // Each names the other member: the photo's owner (given) or the member who reacted (received).
  const reaction = (other: 'owner' | 'by') => (row: pages.ReactionExportRow) => ({
    imageId: row.image_id,
    [other]: row.username,
    kind: row.kind,
    at: row.created_at,
  });
  return jsonChunks({
    given: mapped(pages.reactionsGiven(db, userId), reaction('owner')),
    received: mapped(pages.reactionsReceived(db, userId), reaction('by')),
  });
}

function reportsFile(db: Db, userId: string) {
  const rows = pages.reports(db, userId);
  // Named as the API would: not at all while a block hides them, `deleted member` once gone.
  const named = (row: pages.ReportExportRow) =>
    row.target_hidden ? null : (row.target_username ?? DELETED_MEMBER);
  return jsonChunks({
    reports: mapped(rows, (row) => ({
      id: String(row.id),
      kind: row.target_kind === 'image' ? 'photo' : 'member',
      target:
        row.target_kind === 'image'
          ? { photoId: row.target_id, owner: named(row) }
          : { memberId: row.target_id, username: named(row) },
      reason: REPORT_REASON_LABELS[row.reason as ReportReason] ?? row.reason,
      note: row.note,
      status: row.status,
      resolution: row.resolution,
      createdAt: row.created_at,
      resolvedAt: row.resolved_at,
    })),
  });
}

function blocksFile(db: Db, userId: string) {
  const rows = pages.blocks(db, userId);
  return jsonChunks({
    blocked: mapped(rows, (row) => ({
      id: row.blocked_id,
      username: row.blocked_username,
      blockedAt: row.created_at,
    })),
  });
}

/** One line of photos.json: the photo and its file in the archive (null: the store lacked it). */
interface PhotoIndexLine {
  file: string | null;
  id: string;
  folder: string;
  caption: string;
  width: number;
  height: number;
  uploadedAt: string;
}

/** The photos in gallery order, each named by its place (`photos/0001.webp`), then their index. */
async function* photoEntries(deps: DownloadDeps, userId: string, at: Date) {
  const digits = Math.max(4, String(await pages.countPhotos(deps.db, userId)).length);
  // A few hundred bytes a photo until the index is written: its lines say which files came.
  const index: PhotoIndexLine[] = [];
  const rows = pages.photos(deps.db, userId);
  for await (const row of rows) {
    const file = `photos/${String(index.length + 1).padStart(digits, '0')}.webp`;
    const line: PhotoIndexLine = {
      file: null,
      id: row.id,
      folder: row.folder,
      caption: displayText(row.caption),
      width: row.width,
      height: row.height,
      uploadedAt: row.created_at,
    };
    index.push(line);
    const key = galleryKey(row.display_file);
    yield pictureEntry(deps.media, file, key, new Date(row.created_at), () => {
      line.file = file;
    });
  }
  yield generatedEntry('photos.json', () => jsonChunks({ photos: index }), at);
}

/** The entries of the member's download, `at` the moment it started. */
export async function* downloadEntries(
  deps: DownloadDeps,
  userId: string,
  at: Date,
): AsyncGenerator<ZipEntry> {
  const user = await memberById(deps.db, userId);
  if (!user) throw new Error('the member is gone');
  const { db } = deps;
  yield textEntry('README.txt', DOWNLOAD_README, at);
  let avatar: string | null = null;
  if (user.profile_image)
    yield pictureEntry(deps.media, 'avatar.webp', user.profile_image, at, () => {
      avatar = 'avatar.webp';
    });
  yield generatedEntry(
    'profile.json',
    () =>
      jsonChunks({
        member: userRowToUser(user, deps.media.url),
        account: {
          createdAt: user.created_at,
          updatedAt: user.updated_at,
          downloadedAt: at.toISOString(),
        },
        avatar,
      }),
    at,
  );
  yield generatedEntry('friends.json', () => friendsFile(db, userId), at);
  yield generatedEntry('notifications.json', () => notificationsFile(db, userId), at);
  yield generatedEntry('reactions.json', () => reactionsFile(db, userId), at);
  yield generatedEntry('reports.json', () => reportsFile(db, userId), at);
  yield generatedEntry('blocks.json', () => blocksFile(db, userId), at);
  yield* photoEntries(deps, userId, at);
}
