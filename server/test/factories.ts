/** Factories for tests: members signed up through the real endpoints, images, multipart bodies. */
import { createECDH, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { pairKey } from '../../src/contracts/friends.ts';
import type { AuthResponse, MeResponse, User } from '../../src/contracts/user.ts';

/** The allowed origin every unsafe cookie request names (in APP_ORIGIN by default). */
export const ORIGIN = 'http://localhost:5000';
/** Meets the signup policy: 8+ characters, upper, lower, digit, symbol. */
export const PASSWORD = 'Orbit#Pass1';
export const SECURITY_QUESTION = 'First rocket you built?';
export const SECURITY_ANSWER = 'Saturn Five';

// ---------------------------------------------------------------------------------------------
// Images and multipart bodies

export function pngImage(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#3355aa' } })
    .png()
    .toBuffer();
}

export interface FilePart {
  data: Buffer;
  filename?: string;
  type?: string;
}

/** A real multipart/form-data body, encoded by the platform's FormData. */
export async function multipart(
  fields: Record<string, string | FilePart | undefined>,
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (typeof value === 'string') {
      form.append(name, value);
    } else {
      const blob = new Blob([new Uint8Array(value.data)], {
        type: value.type ?? 'application/octet-stream',
      });
      form.append(name, blob, value.filename ?? 'upload.bin');
    }
  }
  const encoded = new Response(form);
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type') ?? '' },
  };
}

// ---------------------------------------------------------------------------------------------
// Members

let sequence = 0;
/** A unique, valid username (at most 20 characters). */
export function uniqueUsername(prefix = 'm'): string {
  sequence += 1;
  return `${prefix}${sequence}_${randomBytes(4).toString('hex')}`;
}

export interface Member {
  user: User;
  token: string;
  /** `name=value`, ready for a Cookie header. */
  cookie: string;
  username: string;
  email: string;
  password: string;
}

export interface SignupOverrides {
  username?: string;
  email?: string;
  password?: string;
  firstName?: string;
  lastName?: string;
  birthday?: string;
  referral?: string;
  /** Comma-joined, as the signup form sends them. */
  interests?: string;
  securityQuestion?: string;
  securityAnswer?: string;
  favoriteQuote?: string;
  remember?: string;
  /** A file to send as profilePic; null sends none. */
  profilePic?: FilePart | null;
}

export async function signupFields(overrides: SignupOverrides = {}) {
  const { profilePic, ...fields } = overrides;
  const username = fields.username ?? uniqueUsername();
  const base: Record<string, string> = {
    username,
    email: `${username}@example.test`,
    password: PASSWORD,
    firstName: 'Ada',
    lastName: 'Lovelace',
    birthday: '1990-05-17',
    referral: '',
    interests: 'Tech,Music',
    securityQuestion: SECURITY_QUESTION,
    securityAnswer: SECURITY_ANSWER,
    favoriteQuote: 'Ad astra.',
  };
  const file =
    profilePic === null
      ? undefined
      : (profilePic ?? { data: await pngImage(), filename: 'me.png', type: 'image/png' });
  return multipart({ ...base, ...fields, profilePic: file });
}

export function postSignup(app: FastifyInstance, overrides: SignupOverrides = {}) {
  return signupFields(overrides).then(({ payload, headers }) =>
    app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload,
      headers: { ...headers, origin: ORIGIN },
    }),
  );
}

export function sessionCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((item) => item.name === 'orbit_session');
  if (!cookie)
    throw new Error(`no session cookie in a ${response.statusCode} response: ${response.body}`);
  return `${cookie.name}=${cookie.value}`;
}

/** Signs a member up through the real endpoint and answers their session. */
export async function signupUser(
  app: FastifyInstance,
  overrides: SignupOverrides = {},
): Promise<Member> {
  const response = await postSignup(app, overrides);
  if (response.statusCode !== 201)
    throw new Error(`signup failed: ${response.statusCode} ${response.body}`);
  const body = response.json<AuthResponse>();
  return {
    user: body.user,
    token: body.token,
    cookie: sessionCookie(response),
    username: body.user.username,
    email: body.user.email,
    password: overrides.password ?? PASSWORD,
  };
}

export function postLogin(
  app: FastifyInstance,
  body: { identifier?: string; password?: string; remember?: boolean },
) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: body,
    headers: { origin: ORIGIN },
  });
}

/** The status a login with `password` (the member's own by default) answers: 200 or 401. */
export async function loginStatus(
  app: FastifyInstance,
  member: Pick<Member, 'username' | 'password'>,
  password = member.password,
): Promise<number> {
  return (await postLogin(app, { identifier: member.username, password })).statusCode;
}

/** Opens another session for a member. */
export async function loginAs(
  app: FastifyInstance,
  member: Member,
  password = member.password,
): Promise<Member> {
  const response = await postLogin(app, { identifier: member.username, password });
  if (response.statusCode !== 200)
    throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  const body = response.json<AuthResponse>();
  return {
    ...member,
    user: body.user,
    token: body.token,
    cookie: sessionCookie(response),
    password,
  };
}

/** Headers of a browser call riding on the session cookie, from an allowed page. */
export function asCookie(member: Pick<Member, 'cookie'>): Record<string, string> {
  return { cookie: member.cookie, origin: ORIGIN };
}

/** Headers of a bearer-token call (no cookie, no Origin). */
export function asBearer(member: Pick<Member, 'token'>): Record<string, string> {
  return { authorization: `Bearer ${member.token}` };
}

/** A call the tests make often, with the caller's headers and a JSON body (or query, on a GET). */
function endpoint(method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string) {
  return (app: FastifyInstance, headers: Record<string, string> = {}, body?: object) =>
    app.inject({
      method,
      url,
      headers,
      ...(body === undefined
        ? {}
        : method === 'GET'
          ? { query: body as Record<string, string> }
          : { payload: body }),
    });
}

/** A browser's navigation to `url`: asks for HTML, uncompressed, with `headers` on top. */
export function getPage(app: FastifyInstance, url: string, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'GET',
    url,
    headers: { accept: 'text/html', 'accept-encoding': 'identity', ...headers },
  });
}

export const getMe = endpoint('GET', '/api/auth/me');
/** Whom /api/auth/me signs in with the member's token: the user, or null once the session is refused. */
export async function signedInAs(
  app: FastifyInstance,
  member: Pick<Member, 'token'>,
): Promise<User | null> {
  return (await getMe(app, asBearer(member))).json<MeResponse>().user;
}
export const postLogout = endpoint('POST', '/api/auth/logout');
/** The forgotten-password reset: `{ identifier, answer, newPassword }`. */
export const postQuestion = endpoint('POST', '/api/auth/forgot-password/question');
export const postReset = endpoint('POST', '/api/auth/forgot-password/reset');
/** A JSON profile edit (patchProfileForm sends a form with a picture). */
export const patchProfile = endpoint('PATCH', '/api/auth/profile');
export const putTheme = endpoint('PUT', '/api/users/theme');
export const getNotifications = endpoint('GET', '/api/notifications');
export const markRead = endpoint('POST', '/api/notifications/read');
/** The raw answer of the friend status call (friendStatus reads it). */
export const getFriendStatus = endpoint('GET', '/api/users/friends/status');

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function sessionsOf(app: FastifyInstance, userId: string) {
  return app.db.selectFrom('sessions').selectAll().where('user_id', '=', userId).execute();
}

/** Every file under a directory, relative to it. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

/**
 * A built app's folder for STATIC_DIR, in a fresh temporary directory: the shell, the worker, the
 * manifest and a hashed script, then `more` (paths under the folder).
 */
export async function staticBuild(more: Record<string, string | Buffer> = {}): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'orbit-static-'));
  const files = {
    'index.html': '<!doctype html><title>Orbit</title>',
    'sw.js': 'self.addEventListener("fetch", () => {});',
    'manifest.webmanifest': '{"name":"Orbit"}',
    'assets/index-abc123.js': 'console.log(1);',
    ...more,
  };
  for (const [name, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await fs.writeFile(path.join(dir, name), content);
  }
  return dir;
}

/** A GPS position (Paris) for sharp's withExif, the metadata an upload must lose. */
export const GPS = {
  IFD3: {
    GPSLatitudeRef: 'N',
    GPSLatitude: '48/1 51/1 0/1',
    GPSLongitudeRef: 'E',
    GPSLongitude: '2/1 21/1 0/1',
  },
};

/** A JPEG that carries the GPS position above in its EXIF. */
export function jpegWithGps(width: number, height: number, background: string): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background } })
    .jpeg()
    .withExif(GPS)
    .toBuffer();
}

/** PATCH /api/auth/profile as a multipart form (a new picture, comma-joined interests…). */
export async function patchProfileForm(
  app: FastifyInstance,
  member: Pick<Member, 'cookie'>,
  fields: Parameters<typeof multipart>[0],
) {
  const { payload, headers } = await multipart(fields);
  return app.inject({
    method: 'PATCH',
    url: '/api/auth/profile',
    headers: { ...headers, ...asCookie(member) },
    payload,
  });
}

/** Whether an EXIF block (as sharp's metadata().exif gives it) holds a GPS IFD. */
export function exifHasGps(exif: Buffer | undefined): boolean {
  if (!exif) return false;
  const tiff = exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? exif.subarray(6) : exif;
  const little = tiff.subarray(0, 2).toString('latin1') === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd0 = u32(4);
  const count = u16(ifd0);
  for (let index = 0; index < count; index += 1) {
    if (u16(ifd0 + 2 + index * 12) === 0x8825) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Friends

export type FriendAction = 'request' | 'cancel' | 'accept' | 'decline' | 'unfriend';
export const FRIEND_ACTIONS: readonly FriendAction[] = [
  'request',
  'cancel',
  'accept',
  'decline',
  'unfriend',
];

/** The body field each friend call names the other member with (docs/product.md "Friends"). */
export const TARGET_FIELD: Record<FriendAction, 'toUserId' | 'fromUserId' | 'userId'> = {
  request: 'toUserId',
  cancel: 'toUserId',
  accept: 'fromUserId',
  decline: 'fromUserId',
  unfriend: 'userId',
};

/** `count` members as a tuple when the count is a literal (`[Member, Member]` for 2). */
export type Members<N extends number, Got extends Member[] = []> = number extends N
  ? Member[]
  : Got['length'] extends N
    ? Got
    : Members<N, [...Got, Member]>;

/** Several members at once; no security answer, so each signup hashes one secret only. */
export function signupMembers<N extends number>(
  app: FastifyInstance,
  count: N,
  overrides: (index: number) => SignupOverrides = () => ({}),
): Promise<Members<N>> {
  return Promise.all(
    Array.from({ length: count }, (_, index) =>
      signupUser(app, { securityQuestion: '', securityAnswer: '', ...overrides(index) }),
    ),
  ) as Promise<Members<N>>;
}

/** Two fresh members, typed as the pair they are. */
export function signupPair(app: FastifyInstance): Promise<[Member, Member]> {
  return signupMembers(app, 2);
}

/** POST /api/users/friends/{action} with a raw body, as a bearer call unless headers say otherwise. */
export function postFriend(
  app: FastifyInstance,
  action: FriendAction,
  body: Record<string, unknown>,
  headers: Record<string, string>,
) {
  return app.inject({
    method: 'POST',
    url: `/api/users/friends/${action}`,
    headers,
    payload: body,
  });
}

/** `actor` acts on `other`, naming them by id in the field the client sends for that call. */
export function friendAction(
  app: FastifyInstance,
  actor: Member,
  action: FriendAction,
  other: Member,
) {
  return postFriend(app, action, { [TARGET_FIELD[action]]: other.user.id }, asBearer(actor));
}

function isMember(value: Member | Record<string, string>): value is Member {
  return typeof (value as Member).user === 'object';
}

/** The pair's status as `viewer` sees it, named by user id (or any query given). */
export async function friendStatus(
  app: FastifyInstance,
  viewer: Member,
  query: Member | Record<string, string>,
): Promise<string> {
  const params = isMember(query) ? { userId: query.user.id } : query;
  const response = await app.inject({
    method: 'GET',
    url: '/api/users/friends/status',
    query: params,
    headers: asBearer(viewer),
  });
  if (response.statusCode !== 200)
    throw new Error(`status answered ${response.statusCode}: ${response.body}`);
  return response.json<{ status: string }>().status;
}

/** The friendship rows of a pair, straight from the database. */
export function friendshipRows(app: FastifyInstance, a: Member, b: Member) {
  return app.db
    .selectFrom('friendships')
    .selectAll()
    .where('pair_key', '=', pairKey(a.user.id, b.user.id))
    .execute();
}

/** The ids of the notifications `actor` caused for `recipient`, straight from the database. */
export async function notificationIds(
  app: FastifyInstance,
  actor: Member,
  recipient: Member,
): Promise<string[]> {
  const rows = await app.db
    .selectFrom('notifications')
    .select('id')
    .where('recipient_id', '=', recipient.user.id)
    .where('actor_id', '=', actor.user.id)
    .execute();
  return rows.map((row) => String(row.id));
}

// ---------------------------------------------------------------------------------------------
// Push

/** A fresh uncompressed P-256 public key, base64url (a browser's p256dh, or a VAPID key). */
export function p256PublicKey(): string {
  const ecdh = createECDH('prime256v1');
  return ecdh.generateKeys().toString('base64url');
}

/** What `PushSubscription.toJSON()` gives for a new device of a push service at `origin`. */
export function newDevice(origin = 'https://push.example.test') {
  return {
    endpoint: `${origin}/send/${randomBytes(12).toString('hex')}`,
    keys: { p256dh: p256PublicKey(), auth: randomBytes(16).toString('base64url') },
  };
}

/** POST /api/push/subscriptions as the member (cookie and Origin, as the browser sends it). */
export function postPushSubscription(app: FastifyInstance, member: Member, body: unknown) {
  return app.inject({
    method: 'POST',
    url: '/api/push/subscriptions',
    headers: asCookie(member),
    payload: body as Record<string, unknown>,
  });
}

/** Registers a device for the member and answers it; throws unless the server took it. */
export async function subscribeDevice(
  app: FastifyInstance,
  member: Member,
  device = newDevice(),
): Promise<ReturnType<typeof newDevice>> {
  const response = await postPushSubscription(app, member, device);
  if (response.statusCode !== 201 && response.statusCode !== 200)
    throw new Error(`subscribe answered ${response.statusCode}: ${response.body}`);
  return device;
}

/** The member's stored push devices, straight from the database, oldest first. */
export function pushRowsOf(app: FastifyInstance, userId: string) {
  return app.db
    .selectFrom('push_subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
