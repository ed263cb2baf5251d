import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Timestamps are ISO-8601 UTC strings and flags are 0/1 integers, alike on SQLite and PostgreSQL. */
interface UsersTable {
  id: string;
  username: string;
  /** Lower-cased username: unique, and the key every lookup uses. */
  username_key: string;
  email: string;
  email_key: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  birthday: string;
  profile_image: string;
  avatar_version: Generated<number>;
  /** JSON array of strings. */
  interests: string;
  referral: string;
  referral_code: string;
  theme: string;
  favorite_quote: string;
  security_question: string;
  security_answer_hash: string;
  /** Lower-cased "first last", for prefix search. */
  full_name_key: Generated<string>;
  last_name_key: Generated<string>;
  /** Lower-cased "username first last", for substring search. */
  search_text: Generated<string>;
  /** 1 for a moderator (docs/product.md "Safety"); the first member of a fresh install is one. */
  is_moderator: Generated<number>;
  /** 1 for a demo member `npm run seed` added: never the first member, never a moderator by it. */
  is_demo: Generated<number>;
  /** Set while the member is suspended; login then shows the reason. */
  suspended_at: string | null;
  suspension_reason: Generated<string>;
  /** When the member last downloaded their data: one export per 10 minutes. */
  last_export_at: string | null;
  created_at: string;
  updated_at: string;
}
export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;

interface SessionsTable {
  /** SHA-256 of the token, hex; the token itself is never stored. */
  id: string;
  user_id: string;
  remember: number;
  created_at: string;
  expires_at: string;
}
export type SessionRow = Selectable<SessionsTable>;

/** One row per pair of members, whoever asked first. */
interface FriendshipsTable {
  pair_key: string;
  requester_id: string;
  addressee_id: string;
  status: 'pending' | 'accepted';
  created_at: string;
  updated_at: string;
}
export type FriendshipRow = Selectable<FriendshipsTable>;

/** The substring index of SQLite (FTS5, trigram); PostgreSQL uses pg_trgm on users.search_text. */
interface UsersSearchTable {
  user_id: string;
  search_text: string;
}

interface GalleryImagesTable {
  id: string;
  owner_id: string;
  /** File names under uploads/gallery/: the viewer's size and the grid's thumbnail. */
  display_file: string;
  thumb_file: string;
  width: number;
  height: number;
  bytes: number;
  folder: string;
  caption: string;
  /** Ascending order of the owner's grid; a new image takes one less than the smallest. */
  position: number;
  created_at: string;
  /**
   * The `Idempotency-Key` the upload was sent with, unique per owner; null without one
   * (docs/decisions.md "Idempotency keys").
   */
  idempotency_key: string | null;
}
export type GalleryImageRow = Selectable<GalleryImagesTable>;

interface ImageReactionsTable {
  image_id: string;
  user_id: string;
  kind: 'like' | 'dislike';
  created_at: string;
}
export type ImageReactionRow = Selectable<ImageReactionsTable>;

interface NotificationsTable {
  /** Increasing integer: the order of notifications and the cursor of their pages. */
  id: Generated<number>;
  recipient_id: string;
  type: string;
  actor_id: string | null;
  message: string;
  link: string;
  request_id: string | null;
  image_id: string | null;
  read_at: string | null;
  created_at: string;
}
export type NotificationRow = Selectable<NotificationsTable>;
export type NewNotificationRow = Insertable<NotificationsTable>;

/** One device of a member that accepts Web Push; an endpoint belongs to one member at a time. */
interface PushSubscriptionsTable {
  /** Increasing: among devices registered in the same instant, the later one has the larger id. */
  id: Generated<number>;
  user_id: string;
  /** The session that registered it; revoking that session removes the device. */
  session_id: string | null;
  endpoint: string;
  /** The browser's P-256 public key and auth secret, base64url as PushSubscription.toJSON gives them. */
  p256dh: string;
  auth: string;
  created_at: string;
  updated_at: string;
}
export type PushSubscriptionRow = Selectable<PushSubscriptionsTable>;

/** Small values every server node shares, such as the push relay's VAPID public key. */
interface ServerSettingsTable {
  key: string;
  value: string;
  updated_at: string;
}

/** A lease one process at a time holds, such as the push relay's; the holder keeps its progress here. */
interface RelayLeaseTable {
  name: string;
  /** The random id of the relay process holding it. */
  holder: string;
  /** Milliseconds since the epoch by the database's clock (PostgreSQL answers a bigint as text). */
  expires_at: ColumnType<number | string, number, number>;
  /** When the current holder took it (the server's clock; for people reading logs). */
  held_since: string;
  /** The holder's last reported cursor; null until a relay reports one. */
  cursor: number | null;
  /** JSON `{settled, sent}` of the last report. */
  progress: Generated<string>;
}

/** `blocker_id` blocked `blocked_id`; while either row exists the two are hidden from each other. */
interface BlocksTable {
  blocker_id: string;
  blocked_id: string;
  created_at: string;
  /** The blocked member's username when the block was made; null if they were hidden already. */
  blocked_username: string | null;
}
export type BlockRow = Selectable<BlocksTable>;

export type ReportKind = 'image' | 'member';
type ReportStatus = 'open' | 'resolved';
export type ReportResolution = 'dismissed' | 'photo_removed' | 'member_suspended';

/** A member's report of a photo or a member, for moderators. */
interface ReportsTable {
  /** Increasing: the order of reports and the cursor of their pages. */
  id: Generated<number>;
  reporter_id: string;
  target_kind: ReportKind;
  /** The image's id for a photo, the member's id for a member. */
  target_id: string;
  /** The member the report is about (the one reported, or the photo's owner); may be deleted. */
  target_user_id: string;
  reason: string;
  note: string;
  status: ReportStatus;
  resolution: ReportResolution | null;
  resolved_by: string | null;
  resolved_at: string | null;
  created_at: string;
}
export type ReportRow = Selectable<ReportsTable>;

/**
 * A write sent with an `Idempotency-Key` by `member_id` (docs/decisions.md "Idempotency keys"):
 * running while `status` is null, then its stored answer.
 */
interface IdempotencyKeysTable {
  member_id: string;
  key: string;
  /** sha256 of the method, the route, its path parameters and the body (or the form's digest). */
  fingerprint: string;
  /** The random token of the request running it; only that request stores the answer. */
  claim: string;
  status: number | null;
  content_type: string | null;
  body: string | null;
  /** When the key was first used (or a running row taken over), ISO 8601 by the server's clock. */
  created_at: string;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  friendships: FriendshipsTable;
  users_search: UsersSearchTable;
  gallery_images: GalleryImagesTable;
  image_reactions: ImageReactionsTable;
  notifications: NotificationsTable;
  push_subscriptions: PushSubscriptionsTable;
  server_settings: ServerSettingsTable;
  relay_lease: RelayLeaseTable;
  blocks: BlocksTable;
  reports: ReportsTable;
  idempotency_keys: IdempotencyKeysTable;
}
