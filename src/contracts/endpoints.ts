/**
 * Every HTTP call of the API with its shapes (docs/architecture.md "Server plugins and HTTP
 * contracts"): the method and path of `endpoints.paths.ts`, the schemas of the path parameters,
 * query, body and answer from the contracts beside it, and the reader the app applies to the
 * answer (`readers.ts`). The server registers its routes from these entries (`route()` in
 * server/src/lib/route.ts) and the app calls through them (`api()` in src/lib/api.ts).
 *
 * Each entry is its own export, so a page bundles only the entries, schemas and readers it uses.
 */
import type { z } from 'zod';
import {
  CheckUsernameResponse,
  ForgotQuestionBody,
  ForgotResetBody,
  LoginBody,
  PasswordChangeBody,
  ProfilePatchBody,
  SecurityQuestionResponse,
  ThemeBody,
  ThemeResponse,
  TokenResponse,
  UsernameAvailableResponse,
  UsernameParams,
  UsernameQuery,
} from './auth.ts';
import { type EndpointPath, PATHS } from './endpoints.paths.ts';
import {
  FriendCounts,
  FriendListResponse,
  FriendStatusResponse,
  SearchResponse,
} from './friends.ts';
import { FRIEND_BODIES, FriendListQuery, FriendStatusQuery, SearchQuery } from './friendsInput.ts';
import {
  GalleryFoldersResponse,
  GalleryImageResponse,
  GalleryListResponse,
  GalleryOwnerQuery,
  GalleryPageQuery,
  GalleryPatchBody,
  GalleryRefParams,
  GalleryReorderBody,
} from './gallery.ts';
import { OkResponse } from './http.ts';
import {
  NotificationIdParams,
  NotificationPage,
  NotificationPageQuery,
  NotificationReadBody,
  NotificationReadResponse,
} from './notifications.ts';
import {
  PushSubscriptionBody,
  PushUnsubscribeBody,
  VapidPublicKeyResponse,
} from './pushSubscription.ts';
import {
  normaliseUser,
  readAuth,
  readFolders,
  readFriendList,
  readFriendStatus,
  readImage,
  readPage,
  readSearch,
} from './readers.ts';
import {
  BlockBody,
  BlockListResponse,
  BlockParams,
  DeleteAccountBody,
  ModerationReportPage,
  ModerationReportResponse,
  ModerationReportsQuery,
  ReportBody,
  ReportParams,
  SuspendBody,
} from './safety.ts';
import { AuthResponse, MeResponse, PublicUserResponse, UserResponse } from './user.ts';

export interface Endpoint extends EndpointPath {
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  /** The JSON body's schema. */
  readonly body?: z.ZodType;
  /** A multipart/form-data body: `'only'`, or `'also'` beside the JSON body. */
  readonly multipart?: 'only' | 'also';
  /** The answer: its schema, `'none'` for an empty 204, `'stream'` for a download. */
  readonly answer: z.ZodType | 'none' | 'stream';
  /** The success statuses the answer comes with; 200 unless named (204 for `'none'`). */
  readonly status?: readonly number[];
  /**
   * How the app reads the answer when other servers may spell it differently (readers.ts);
   * without one, the answer schema parses it.
   */
  readonly read?: (body: unknown) => unknown;
  /** The OpenAPI summary, for a call the schemas do not describe (multipart, a download). */
  readonly summary?: string;
  /** A download's content type and what it is, for the OpenAPI document. */
  readonly contentType?: string;
  readonly description?: string;
}

// Session and account, open to the signed out.

export const signup = {
  ...PATHS.signup,
  multipart: 'only',
  answer: AuthResponse,
  status: [201],
  read: readAuth,
  summary: 'Sign up (multipart/form-data with the profile picture as profilePic)',
} as const satisfies Endpoint;
export const login = {
  ...PATHS.login,
  body: LoginBody,
  answer: AuthResponse,
  read: readAuth,
} as const satisfies Endpoint;
export const logout = {
  ...PATHS.logout,
  answer: OkResponse,
  read: () => null,
} as const satisfies Endpoint;
/** docs/decisions.md "Signed-out session check": `{user: null}` when signed out. */
export const me = {
  ...PATHS.me,
  answer: MeResponse,
  read: normaliseUser,
} as const satisfies Endpoint;
export const tokenBridge = {
  ...PATHS.tokenBridge,
  answer: TokenResponse,
} as const satisfies Endpoint;
/** Signup's check (docs/decisions.md "Two username checks"). */
export const usernameAvailable = {
  ...PATHS.usernameAvailable,
  query: UsernameQuery,
  answer: UsernameAvailableResponse,
} as const satisfies Endpoint;
export const forgotQuestion = {
  ...PATHS.forgotQuestion,
  body: ForgotQuestionBody,
  answer: SecurityQuestionResponse,
} as const satisfies Endpoint;
export const forgotReset = {
  ...PATHS.forgotReset,
  body: ForgotResetBody,
  answer: OkResponse,
  read: () => null,
} as const satisfies Endpoint;
export const pushKey = {
  ...PATHS.pushKey,
  answer: VapidPublicKeyResponse,
} as const satisfies Endpoint;

// The member's own account.

/** The settings check: the member's own name counts as available. */
export const checkUsername = {
  ...PATHS.checkUsername,
  query: UsernameQuery,
  answer: CheckUsernameResponse,
} as const satisfies Endpoint;
export const profileUpdate = {
  ...PATHS.profileUpdate,
  body: ProfilePatchBody,
  multipart: 'also',
  answer: UserResponse,
  read: normaliseUser,
  summary: 'Update the profile (JSON, or multipart/form-data with a new profilePic)',
} as const satisfies Endpoint;
export const passwordChange = {
  ...PATHS.passwordChange,
  body: PasswordChangeBody,
  answer: OkResponse,
  read: () => null,
} as const satisfies Endpoint;
/** docs/product.md "Leaving": the answer also clears the session cookie. */
export const accountDelete = {
  ...PATHS.accountDelete,
  body: DeleteAccountBody,
  answer: OkResponse,
  read: () => null,
} as const satisfies Endpoint;
/** The member's data as a zip, streamed as it is built; the browser follows the link itself. */
export const accountExport = {
  ...PATHS.accountExport,
  answer: 'stream',
  contentType: 'application/zip',
  description: 'The archive, as the attachment `orbit-{username}.zip`',
  summary: 'Download my data: a zip archive, streamed as it is built',
} as const satisfies Endpoint;
export const usersMe = { ...PATHS.usersMe, answer: UserResponse } as const satisfies Endpoint;
export const themeSave = {
  ...PATHS.themeSave,
  body: ThemeBody,
  answer: ThemeResponse,
  read: () => null,
} as const satisfies Endpoint;
/** docs/decisions.md "Theme path": the same save, answering the whole member. */
export const themeSaveMe = {
  ...PATHS.themeSaveMe,
  body: ThemeBody,
  answer: UserResponse,
} as const satisfies Endpoint;
export const profile = {
  ...PATHS.profile,
  params: UsernameParams,
  answer: PublicUserResponse,
  read: normaliseUser,
} as const satisfies Endpoint;

// Friends and search (docs/decisions.md "Friend calls answer the status").

const friendAction = <P extends EndpointPath, B extends z.ZodType>(path: P, body: B) =>
  ({ ...path, body, answer: FriendStatusResponse, read: readFriendStatus }) as const;
export const friendRequest = friendAction(PATHS.friendRequest, FRIEND_BODIES.request);
export const friendCancel = friendAction(PATHS.friendCancel, FRIEND_BODIES.cancel);
export const friendAccept = friendAction(PATHS.friendAccept, FRIEND_BODIES.accept);
export const friendDecline = friendAction(PATHS.friendDecline, FRIEND_BODIES.decline);
export const friendUnfriend = friendAction(PATHS.friendUnfriend, FRIEND_BODIES.unfriend);
/** The entry of each friend call. */
export const FRIEND_ENDPOINTS = {
  request: friendRequest,
  cancel: friendCancel,
  accept: friendAccept,
  decline: friendDecline,
  unfriend: friendUnfriend,
} as const;
export const friendStatus = {
  ...PATHS.friendStatus,
  query: FriendStatusQuery,
  answer: FriendStatusResponse,
  read: readFriendStatus,
} as const satisfies Endpoint;
export const friendCounts = {
  ...PATHS.friendCounts,
  answer: FriendCounts,
} as const satisfies Endpoint;
export const friendsIncoming = {
  ...PATHS.friendsIncoming,
  answer: FriendListResponse,
  read: readFriendList,
} as const satisfies Endpoint;
export const friendsOutgoing = {
  ...PATHS.friendsOutgoing,
  answer: FriendListResponse,
  read: readFriendList,
} as const satisfies Endpoint;
/** The signed-in member's friends, or another member's with userId or username. */
export const friendsList = {
  ...PATHS.friendsList,
  query: FriendListQuery,
  answer: FriendListResponse,
  read: readFriendList,
} as const satisfies Endpoint;
export const search = {
  ...PATHS.search,
  query: SearchQuery,
  answer: SearchResponse,
  read: readSearch,
} as const satisfies Endpoint;

// Blocking, reports and moderation.

export const blockList = {
  ...PATHS.blockList,
  answer: BlockListResponse,
} as const satisfies Endpoint;
export const block = {
  ...PATHS.block,
  body: BlockBody,
  answer: OkResponse,
} as const satisfies Endpoint;
export const unblock = {
  ...PATHS.unblock,
  params: BlockParams,
  answer: OkResponse,
  read: () => null,
} as const satisfies Endpoint;
export const report = {
  ...PATHS.report,
  body: ReportBody,
  answer: OkResponse,
  status: [201],
} as const satisfies Endpoint;
export const moderationReports = {
  ...PATHS.moderationReports,
  query: ModerationReportsQuery,
  answer: ModerationReportPage,
} as const satisfies Endpoint;
export const moderationDismiss = {
  ...PATHS.moderationDismiss,
  params: ReportParams,
  answer: ModerationReportResponse,
} as const satisfies Endpoint;
export const moderationRemovePhoto = {
  ...PATHS.moderationRemovePhoto,
  params: ReportParams,
  answer: ModerationReportResponse,
} as const satisfies Endpoint;
export const moderationSuspend = {
  ...PATHS.moderationSuspend,
  params: ReportParams,
  body: SuspendBody,
  answer: ModerationReportResponse,
} as const satisfies Endpoint;

// Galleries (docs/decisions.md "Only the owner edits a gallery", "A paged gallery").

export const galleryPage = {
  ...PATHS.galleryPage,
  query: GalleryPageQuery,
  answer: GalleryListResponse,
  read: readPage,
} as const satisfies Endpoint;
export const galleryFolders = {
  ...PATHS.galleryFolders,
  query: GalleryOwnerQuery,
  answer: GalleryFoldersResponse,
  read: readFolders,
} as const satisfies Endpoint;
/** Sent with XMLHttpRequest for its progress (src/features/gallery/upload.ts). */
export const galleryUpload = {
  ...PATHS.galleryUpload,
  multipart: 'only',
  answer: GalleryImageResponse,
  status: [201],
  read: readImage,
  summary: 'Upload (multipart/form-data: image, accountId, userId, username, folder)',
} as const satisfies Endpoint;
export const galleryPatch = {
  ...PATHS.galleryPatch,
  params: GalleryRefParams,
  body: GalleryPatchBody,
  answer: GalleryImageResponse,
  read: readImage,
} as const satisfies Endpoint;
export const galleryDelete = {
  ...PATHS.galleryDelete,
  params: GalleryRefParams,
  answer: 'none',
} as const satisfies Endpoint;
export const galleryReorder = {
  ...PATHS.galleryReorder,
  body: GalleryReorderBody,
  answer: OkResponse,
  read: () => null,
} as const satisfies Endpoint;

// Notifications and push.

export const notifications = {
  ...PATHS.notifications,
  query: NotificationPageQuery,
  answer: NotificationPage,
} as const satisfies Endpoint;
export const notificationsRead = {
  ...PATHS.notificationsRead,
  body: NotificationReadBody,
  answer: NotificationReadResponse,
} as const satisfies Endpoint;
export const notificationDelete = {
  ...PATHS.notificationDelete,
  params: NotificationIdParams,
  answer: 'none',
} as const satisfies Endpoint;
export const notificationsClear = {
  ...PATHS.notificationsClear,
  answer: 'none',
} as const satisfies Endpoint;
export const pushSubscribe = {
  ...PATHS.pushSubscribe,
  body: PushSubscriptionBody,
  answer: OkResponse,
  status: [200, 201],
  read: () => null,
} as const satisfies Endpoint;
export const pushUnsubscribe = {
  ...PATHS.pushUnsubscribe,
  body: PushUnsubscribeBody,
  answer: 'none',
} as const satisfies Endpoint;
