/**
 * The block rules held as a whole (docs/product.md "Blocking"; docs/decisions.md
 * "What a block cannot hide"). Two members who had everything to do with each other and with two third members
 * (friends, requests, photos, captions, folders, reactions, notifications, reports, devices) are
 * blocked: one by the other, the other way, or both. Then one of them calls every route of the app
 * and sends every client event, naming in each place that takes a name every value of the
 * other's (id, usernames, photos by id, file and address, the notifications they caused), the
 * third members' (ids, usernames, photos) and values of the same kinds that name nothing; all the
 * while the other acts (reactions, captions, an upload, a rename, a new picture, presence, friend
 * calls, reports, a photo removed by a moderator, and at last the deletion of their account) and
 * the member's real sockets listen. It fails when
 *
 * - an answer, a header, an entry of the download or a socket event names the hidden member (their
 *   id, any name they had, their pictures, photos, captions, folders and texts), but where
 *   docs/decisions.md says so on purpose (`ALLOWED`);
 * - a call naming the hidden member or their things answers, or causes events, otherwise than the
 *   same call naming a thing that does not exist (`DIFFERS_ON_PURPOSE` lists the exceptions);
 * - a public route answers the member otherwise than it answers the signed out;
 * - the hidden member's acts reach the member at all, but as the counts every watcher of a third
 *   member's photo hears;
 * - a route or a client event has no case here (`ROUTE_CASES` or derived from the route's
 *   contracts, `NOT_SWEPT`, `CLIENT_EVENT_CASES`): the routes are those the app registers
 *   (`onRoute`), so a new one fails this file until it has a case.
 *
 * Each failure names the call (route, field, value) or the event and the place in it that named
 * the hidden member.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { GalleryImage } from '../../src/contracts/gallery.ts';
import { FRIEND_ACTIONS, FRIEND_TARGET_FIELD } from '../../src/contracts/friendsInput.ts';
import { CLIENT_EVENT_SCHEMAS } from '../../src/contracts/realtime.ts';
import type { User } from '../../src/contracts/user.ts';
import { galleryRoom, imageRoom } from '../src/plugins/watching.ts';
import { jpegPart, patchImage, uploadImage } from './gallery-helpers.ts';
import {
  type Member,
  ORIGIN,
  type TestApp,
  asBearer,
  asCookie,
  buildTestApp,
  forEachDialect,
  friendAction,
  multipart,
  newDevice,
  notificationIds,
  patchProfileForm,
  pngImage,
  signupUser,
  subscribeDevice,
  uniqueUsername,
  markRead,
  patchProfile,
} from './helpers.ts';
import { act, block, firstMember, report } from './safety-helpers.ts';
import { type Seen, connected, join, listen, record, useSockets } from './sockets.ts';
import { unzip } from './unzip.ts';

const SWEEP_ENV = {
  RELAY_SECRET: 'sweep-relay-secret-0123456789',
  PUSH_ALLOWED_HOSTS: 'push.example.test',
  METRICS_TOKEN: 'sweep-metrics-token-0123456789',
  // Each value is reported once or twice; the limit itself is tested in reports.test.ts.
  REPORTS_PER_HOUR: '1000000',
};

const WRONG_PASSWORD = 'Wrong#Pass1';

const openSocket = useSockets();

// ---------------------------------------------------------------------------------------------
// The world

/** Random lower-case letters: names no test text holds by chance. */
const letters = (length: number) =>
  Array.from(randomBytes(length), (byte) => String.fromCharCode(97 + (byte % 26))).join('');
const capitalised = (length: number) => {
  const word = letters(length);
  return word.charAt(0).toUpperCase() + word.slice(1);
};
const fileNameOf = (address: string) => address.split('/').pop() ?? address;
const pictureName = (address: string) => fileNameOf(address).replace(/(-thumb)?\.webp$/, '');

/** Something of the hidden member's that no answer may carry. */
interface Mark {
  label: string;
  text: string;
}

interface World {
  /** The member who calls every route. */
  viewer: Member;
  /** The member the block hides from the viewer. */
  hidden: Member;
  /** Third members: friends of one or both or asked by them, with photos both reacted to. */
  c: Member;
  d: Member;
  moderator: Member;
  photos: { viewer: GalleryImage[]; hidden: GalleryImage[]; c: GalleryImage[]; d: GalleryImage[] };
  /** The hidden member's username when the viewer blocked them (the block list keeps it). */
  usernameAtBlock: string;
  /** Ids of the viewer's notifications the hidden member caused. */
  hiddenNotifications: string[];
  /** Everything that names the hidden member, growing as they act. */
  marks: Mark[];
  /** Whether the viewer blocked the hidden member (the block list then names them). */
  viewerBlocks: boolean;
  /** What every username of this world starts with, so that one search finds them all. */
  prefix: string;
}

function markMember(marks: Mark[], user: User) {
  marks.push(
    { label: 'their id', text: user.id },
    { label: `their username ${user.username}`, text: user.username },
    { label: 'their first name', text: user.firstName },
    { label: 'their last name', text: user.lastName },
    { label: 'their quote', text: user.favoriteQuote },
    { label: 'their picture', text: pictureName(user.profileImage) },
  );
}

function markPhoto(marks: Mark[], image: GalleryImage) {
  marks.push(
    { label: `their photo ${image.id}`, text: image.id },
    { label: `their photo's file ${pictureName(image.url)}`, text: pictureName(image.url) },
  );
}

async function newMember(app: FastifyInstance, role: string, prefix: string): Promise<Member> {
  return signupUser(app, {
    username: uniqueUsername(prefix),
    firstName: capitalised(12),
    lastName: capitalised(12),
    favoriteQuote: `${role} says ${letters(16)}`,
    securityQuestion: `Whose rocket is ${letters(16)}?`,
    securityAnswer: 'Saturn Five',
  });
}

async function edit(app: FastifyInstance, owner: Member, image: GalleryImage, body: object) {
  const response = await patchImage(app, owner, image.id, body as Record<string, unknown>);
  if (response.statusCode !== 200)
    throw new Error(`edit answered ${response.statusCode}: ${response.body}`);
  return response.json<{ image: GalleryImage }>().image;
}

async function befriend(app: FastifyInstance, a: Member, b: Member) {
  await friendAction(app, a, 'request', b);
  await friendAction(app, b, 'accept', a);
}

/**
 * The viewer and the hidden member, each with a bit of everything towards the other and towards C
 * and D; the same both ways, so either may be the one who blocks.
 */
async function buildWorld(app: FastifyInstance, moderator: Member): Promise<World> {
  const prefix = `sw${letters(3)}`;
  const [viewer, hidden, c, d] = [
    await newMember(app, 'viewer', prefix),
    await newMember(app, 'hidden', prefix),
    await newMember(app, 'c', prefix),
    await newMember(app, 'd', prefix),
  ];
  const caption = (who: string) => `${who} at dusk ${letters(12)}`;
  const folder = (who: string) => `${who} trips ${letters(8)}`;
  const photosOf = async (member: Member, who: string) => {
    const first = await uploadImage(app, member);
    const second = await uploadImage(app, member);
    return [
      await edit(app, member, first, { caption: caption(who), folder: folder(who) }),
      await edit(app, member, second, { caption: caption(who) }),
    ];
  };
  const photos = {
    viewer: await photosOf(viewer, 'viewer'),
    hidden: await photosOf(hidden, 'hidden'),
    c: await photosOf(c, 'c'),
    d: await photosOf(d, 'd'),
  };
  const [v1, v2] = photos.viewer as [GalleryImage, GalleryImage];
  const [h1, h2] = photos.hidden as [GalleryImage, GalleryImage];
  const [c1, c2] = photos.c as [GalleryImage, GalleryImage];
  const [d1] = photos.d as [GalleryImage];

  await befriend(app, viewer, hidden);
  await befriend(app, viewer, c);
  await befriend(app, hidden, c);
  await befriend(app, viewer, d);
  await befriend(app, c, d);
  await friendAction(app, hidden, 'request', d);
  await friendAction(app, d, 'request', viewer);
  await friendAction(app, viewer, 'unfriend', d);
  await friendAction(app, d, 'request', viewer);

  for (const [member, image, body] of [
    [viewer, c1, { likes: true }],
    [hidden, c1, { likes: true }],
    [viewer, c2, { dislikes: true }],
    [hidden, c2, { dislikes: true }],
    [viewer, d1, { dislikes: true }],
    [hidden, d1, { dislikes: true }],
    [viewer, h1, { likes: true }],
    [viewer, h2, { dislikes: true }],
    [hidden, v1, { likes: true }],
    [hidden, v2, { dislikes: true }],
    [c, v1, { likes: true }],
    [c, h1, { likes: true }],
    [d, h2, { likes: true }],
  ] as const)
    await edit(app, member, image, body);

  for (const [a, b] of [
    [viewer, hidden],
    [hidden, viewer],
  ] as const) {
    await report(app, a, 'member', b.user.id);
    await report(app, a, 'image', (a === viewer ? h1 : v1).id);
  }
  await report(app, c, 'image', h1.id);
  await subscribeDevice(app, viewer, newDevice());
  await subscribeDevice(app, hidden, newDevice());

  const marks: Mark[] = [];
  markMember(marks, hidden.user);
  for (const image of photos.hidden) {
    markPhoto(marks, image);
    marks.push({ label: `their caption`, text: image.caption });
    if (image.folder !== 'All') marks.push({ label: 'their folder', text: image.folder });
  }
  const question = await app.db
    .selectFrom('users')
    .select('security_question')
    .where('id', '=', hidden.user.id)
    .executeTakeFirstOrThrow();
  marks.push({ label: 'their security question', text: question.security_question });
  return {
    viewer,
    hidden,
    c,
    d,
    moderator,
    photos,
    usernameAtBlock: hidden.username,
    hiddenNotifications: [],
    marks,
    viewerBlocks: false,
    prefix,
  };
}

// ---------------------------------------------------------------------------------------------
// Values a call may name

type Whose = 'hidden' | 'absent' | 'third';

interface Value {
  label: string;
  text: string;
  whose: Whose;
  /** For a hidden value: one of the same kind that names nothing. */
  absent?: Value;
  /** The only routes that take it (a notification's id names nothing anywhere else). */
  only?: readonly string[];
}

const hiddenValue = (label: string, text: string, absent: string): Value => ({
  label: `the hidden member's ${label}`,
  text,
  whose: 'hidden',
  absent: { label: `an absent ${label}`, text: absent, whose: 'absent' },
});

const absentPicture = () => randomBytes(16).toString('hex');

/** The routes that take a notification's id. */
const NOTIFICATION_ROUTES = ['POST /api/notifications/read', 'DELETE /api/notifications/:id'];

function valuesOf(w: World): Value[] {
  const { hidden } = w;
  const usernames = [
    ...new Set(w.marks.filter((m) => m.label.startsWith('their username')).map((m) => m.text)),
  ];
  const values: Value[] = [
    hiddenValue('id', hidden.user.id, randomUUID()),
    ...usernames.map((name) => hiddenValue('username', name, uniqueUsername('gone'))),
    hiddenValue('email', hidden.email, `${uniqueUsername('gone')}@example.test`),
    ...w.marks
      .filter((mark) => mark.label.startsWith('their photo '))
      .map((mark) => hiddenValue('photo id', mark.text, randomUUID())),
    ...w.marks
      .filter((mark) => mark.label.startsWith("their photo's file"))
      .flatMap((mark) => {
        const absent = absentPicture();
        return [
          hiddenValue('photo file', `${mark.text}.webp`, `${absent}.webp`),
          hiddenValue(
            'photo address',
            `/uploads/gallery/${mark.text}-thumb.webp`,
            `/uploads/gallery/${absent}-thumb.webp`,
          ),
        ];
      }),
    ...w.hiddenNotifications.map((id, index) => ({
      ...hiddenValue('notification to the viewer', id, String(2_000_000_000 + index)),
      only: NOTIFICATION_ROUTES,
    })),
  ];
  const third = (label: string, text: string): Value => ({ label, text, whose: 'third' });
  for (const [name, member, photos] of [
    ['C', w.c, w.photos.c],
    ['D', w.d, w.photos.d],
  ] as const) {
    values.push(
      third(`${name}'s id`, member.user.id),
      third(`${name}'s username`, member.username),
      ...photos.map((image) => third(`${name}'s photo`, image.id)),
    );
  }
  values.push(third('the prefix every username of the world shares', w.prefix));
  return values;
}

// ---------------------------------------------------------------------------------------------
// Calls

interface Call {
  method: string;
  url: string;
  query?: Record<string, string>;
  /** JSON, or a multipart form with `form`. */
  payload?: unknown;
  form?: Parameters<typeof multipart>[0];
  /** Where the value went, for the failure message. */
  field: string;
  /** Names no value: sent once, and compared with nothing. */
  once?: true;
}

type Phase = 'read' | 'write' | 'export' | 'block' | 'last';

interface RouteCase {
  /** The calls naming `v` (or none, for a route that takes nothing: called once with ''). */
  calls?: ((v: string, w: World) => Call[]) | undefined;
  /** Which values: every one (default), none, or only the hidden member's and absent ones. */
  values?: 'each' | 'none' | 'hidden';
  phase?: Phase;
  /** A public route: it answers the member exactly as it answers the signed out. */
  public?: true;
}

const route = (method: string, url: string) => `${method} ${url}`;

/** The path and query fields of a route, from its contracts, each filled with the value in turn. */
function derivedCalls(method: string, url: string, schema: RouteSchema): RouteCase['calls'] {
  const fields = (part: unknown) => {
    if (!part) return [];
    const json = z.toJSONSchema(part as z.ZodType, { io: 'input', unrepresentable: 'any' }) as {
      properties?: Record<string, unknown>;
    };
    return Object.keys(json.properties ?? {});
  };
  const params = fields(schema.params);
  const query = fields(schema.querystring);
  if (params.length === 0 && query.length === 0) return undefined;
  return (v) => [
    ...params.map((name) => ({
      method,
      url: url.replace(`:${name}`, encodeURIComponent(v)),
      field: `path ${name}`,
    })),
    ...query.map((name) => ({ method, url, query: { [name]: v }, field: `query ${name}` })),
    // The member's own (gallery, friends, notifications), as a query naming nobody asks for it.
    ...(params.length === 0 ? [{ method, url, field: 'no query', once: true as const }] : []),
  ];
}

interface RouteSchema {
  body?: unknown;
  querystring?: unknown;
  params?: unknown;
  consumes?: readonly string[];
}

interface AppRoute {
  method: string;
  url: string;
  schema: RouteSchema;
}

/**
 * Routes no member call reaches, or that name nothing of anyone, with why they are left out.
 * A route that is neither here nor in ROUTE_CASES, nor derivable, fails the sweep.
 */
const NOT_SWEPT: Record<string, string> = {
  'OPTIONS *': 'a preflight: headers only, the same for every path',
  'GET /healthz': 'health: names no member',
  'HEAD /healthz': 'health: names no member',
  'GET /readyz': 'health: names no member',
  'HEAD /readyz': 'health: names no member',
  'GET /metrics': 'the operator’s, behind its own token',
  'HEAD /metrics': 'the operator’s, behind its own token',
  'POST /api/auth/signup':
    'makes an account; whether a username is taken is the username check, swept here',
  'POST /api/auth/logout': 'ends the session the sweep runs on; names nothing',
  // docs/decisions.md "A block stops live events at once, on every node": pictures stay public to
  // whoever has their address; the API hands out none of a hidden member's.
  'GET /uploads/*': 'pictures are public by address; no answer here hands one out',
  'HEAD /uploads/*': 'pictures are public by address; no answer here hands one out',
};

const json = (method: string, url: string, payload: unknown, field: string): Call => ({
  method,
  url,
  payload,
  field,
});

/** Routes whose calls are written here: bodies, forms, and what must run at a given moment. */
const ROUTE_CASES: Record<string, RouteCase> = {
  // Public routes with something to name: what they tell a member they tell everyone.
  'GET /api/check-username': { public: true },
  'HEAD /api/check-username': { public: true },
  'POST /api/auth/login': {
    public: true,
    calls: (v) => [
      json('POST', '/api/auth/login', { identifier: v, password: WRONG_PASSWORD }, 'identifier'),
    ],
  },
  'POST /api/auth/forgot-password/question': {
    public: true,
    calls: (v) => [
      json('POST', '/api/auth/forgot-password/question', { identifier: v }, 'identifier'),
    ],
  },
  'POST /api/auth/forgot-password/reset': {
    public: true,
    calls: (v) => [
      json(
        'POST',
        '/api/auth/forgot-password/reset',
        { identifier: v, answer: 'not the answer', newPassword: 'Orbit#Pass9' },
        'identifier',
      ),
    ],
  },

  'PATCH /api/auth/profile': {
    values: 'none',
    calls: () => [
      json('PATCH', '/api/auth/profile', { favoriteQuote: `still here ${letters(6)}` }, 'none'),
      {
        method: 'PATCH',
        url: '/api/auth/profile',
        form: { firstName: capitalised(10) },
        field: 'form',
      },
    ],
  },
  'PATCH /api/auth/password': {
    values: 'none',
    calls: () => [
      json(
        'PATCH',
        '/api/auth/password',
        { currentPassword: WRONG_PASSWORD, newPassword: 'Orbit#Pass9' },
        'none',
      ),
    ],
  },
  'DELETE /api/auth/account': {
    calls: (v) => [
      json('DELETE', '/api/auth/account', { username: v, password: WRONG_PASSWORD }, 'username'),
    ],
  },
  'GET /api/auth/export': { values: 'none', phase: 'export' },
  'PUT /api/users/theme': {
    values: 'none',
    calls: () => [json('PUT', '/api/users/theme', { theme: 'dark' }, 'none')],
  },
  'PUT /api/users/me': {
    values: 'none',
    calls: () => [json('PUT', '/api/users/me', { theme: 'normal1' }, 'none')],
  },
  ...Object.fromEntries(
    FRIEND_ACTIONS.map((action) => [
      `POST /api/users/friends/${action}`,
      {
        calls: (v: string) => [
          json(
            'POST',
            `/api/users/friends/${action}`,
            { [FRIEND_TARGET_FIELD[action]]: v },
            FRIEND_TARGET_FIELD[action],
          ),
          json('POST', `/api/users/friends/${action}`, { username: v }, 'username'),
        ],
      } satisfies RouteCase,
    ]),
  ),
  'POST /api/notifications/read': {
    calls: (v) => [
      json('POST', '/api/notifications/read', { ids: [v] }, 'ids'),
      { ...json('POST', '/api/notifications/read', { all: true }, 'all'), once: true },
    ],
  },
  'DELETE /api/notifications': { values: 'none', phase: 'last' },
  'POST /api/gallery': {
    calls: (v) => [
      {
        method: 'POST',
        url: '/api/gallery',
        form: { accountId: v, userId: v, username: v, folder: 'Swept' },
        field: 'accountId, userId, username',
      },
    ],
  },
  'PATCH /api/gallery/:ref': {
    calls: (v, w) => {
      const at = `/api/gallery/${encodeURIComponent(v)}`;
      const own = `/api/gallery/${encodeURIComponent(w.photos.viewer[0]?.id ?? '')}`;
      return [
        json('PATCH', at, { likes: true }, 'path ref (like)'),
        json('PATCH', at, { dislikes: true }, 'path ref (dislike)'),
        json('PATCH', at, { likes: false, dislikes: false }, 'path ref (take back)'),
        json('PATCH', at, { caption: 'swept' }, 'path ref (caption)'),
        json('PATCH', at, { folder: 'Swept' }, 'path ref (folder)'),
        json('PATCH', own, { likes: [v], accountId: v }, 'likes, accountId'),
      ];
    },
  },
  'POST /api/gallery/reorder': {
    calls: (v, w) => {
      const own = w.photos.viewer[0]?.id ?? '';
      return [
        json('POST', '/api/gallery/reorder', { order: [v] }, 'order'),
        json('POST', '/api/gallery/reorder', { order: [own], userId: v, accountId: v }, 'userId'),
        json('POST', '/api/gallery/reorder', { id: v, before: own }, 'id'),
        json('POST', '/api/gallery/reorder', { id: own, before: v }, 'before'),
        json('POST', '/api/gallery/reorder', { id: own, after: v }, 'after'),
      ];
    },
  },
  'POST /api/push/subscriptions': {
    values: 'none',
    calls: () => [json('POST', '/api/push/subscriptions', newDevice(), 'none')],
  },
  'DELETE /api/push/subscriptions': {
    values: 'none',
    calls: () => [
      json('DELETE', '/api/push/subscriptions', { endpoint: newDevice().endpoint }, 'none'),
    ],
  },
  // docs/decisions.md "The block list names whom one blocked as one knew them": a block takes any
  // existing member's id, and answers {ok: true} as every block does. Blocking a third member
  // would hide them, and the sweep needs them seen.
  'POST /api/users/blocks': {
    values: 'hidden',
    phase: 'block',
    calls: (v) => [json('POST', '/api/users/blocks', { userId: v }, 'userId')],
  },
  // Lifting the viewer's block would end what is swept: after the hidden member has left.
  'DELETE /api/users/blocks/:userId': { phase: 'last' },
  'POST /api/reports': {
    calls: (v) => [
      json('POST', '/api/reports', { kind: 'member', targetId: v, reason: 'spam' }, 'targetId'),
      json('POST', '/api/reports', { kind: 'image', targetId: v, reason: 'spam' }, 'targetId'),
    ],
  },
  'POST /api/moderation/reports/:id/remove-photo': {
    calls: (v) => [
      json(
        'POST',
        `/api/moderation/reports/${encodeURIComponent(v)}/remove-photo`,
        { reason: 'spam' },
        'path id',
      ),
    ],
  },
  'POST /api/moderation/reports/:id/suspend': {
    calls: (v) => [
      json(
        'POST',
        `/api/moderation/reports/${encodeURIComponent(v)}/suspend`,
        { reason: 'swept' },
        'path id',
      ),
    ],
  },
};

/** Client events a socket may send, each with the payload naming `v`. */
const CLIENT_EVENT_CASES: Record<string, ((v: string) => object) | null> = {
  'presence:join': (v) => ({ userId: v }),
  'presence:leave': null,
  'gallery:join': (v) => ({ ownerId: v }),
  'gallery:leave': (v) => ({ ownerId: v }),
  'image:join': (v) => ({ imageId: v }),
  'image:leave': (v) => ({ imageId: v }),
};

/** What a route's case is: written here, derived from its contracts, or none (then it fails). */
function caseFor(r: AppRoute): RouteCase | undefined {
  const key = route(r.method, r.url);
  const written = ROUTE_CASES[key];
  const derived = derivedCalls(r.method, r.url, r.schema);
  if (written) return { ...written, calls: written.calls ?? derived };
  if (r.schema.body || r.schema.consumes || r.url.includes('*')) return undefined;
  return { calls: derived, values: derived ? 'each' : 'none' };
}

// ---------------------------------------------------------------------------------------------
// Reading answers

/** Every string in a value with where it is (`a.b[2].c`). */
function leaves(value: unknown, at = ''): [string, string][] {
  if (typeof value === 'string') return [[at, value]];
  if (Array.isArray(value)) return value.flatMap((item, index) => leaves(item, `${at}[${index}]`));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) => leaves(item, at ? `${at}.${key}` : key));
  return [];
}

const readJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

/**
 * Where docs/decisions.md lets an answer name the hidden member, each with the heading that says so.
 * `at` is the place in the answer (`users[0].id`), `whole` the answer (or the archive file) it is in.
 */
const ALLOWED: {
  where: string;
  allows: (at: string, text: string, whole: unknown, w: World) => boolean;
}[] = [
  {
    // "The block list names whom one blocked as one knew them": the id and the name kept then.
    where: 'GET /api/users/blocks|blocks.json',
    allows: (at, text, _whole, w) =>
      w.viewerBlocks &&
      ((/^(users|blocked)\[\d+\]\.id$/.test(at) && text === w.hidden.user.id) ||
        (/^(users|blocked)\[\d+\]\.username$/.test(at) && text === w.usernameAtBlock)),
  },
  {
    // "Leaving: delete and export": what the member did stays, since it is theirs, without naming
    // the member it was about: the photo they reacted to, the member or photo they reported, by id.
    where: 'reactions.json',
    allows: (at, _text, whole) => {
      const match = /^given\[(\d+)\]\.imageId$/.exec(at);
      const given = (whole as { given?: { owner: unknown }[] }).given;
      return match !== null && given?.[Number(match[1])]?.owner === null;
    },
  },
  {
    where: 'reports.json',
    allows: (at, _text, whole) => {
      const match = /^reports\[(\d+)\]\.target\.(memberId|photoId)$/.exec(at);
      const reports = (whole as { reports?: { target: Record<string, unknown> }[] }).reports;
      const target = match ? reports?.[Number(match[1])]?.target : undefined;
      return (
        target !== undefined && ('username' in target ? target.username : target.owner) === null
      );
    },
  },
];

/** The places in `value` that name the hidden member, as `at: label`, less those allowed. */
function namings(where: string, value: unknown, w: World): string[] {
  const found: string[] = [];
  const marks = [...new Map(w.marks.map((mark) => [mark.text, mark])).values()];
  for (const [at, text] of leaves(value)) {
    for (const mark of marks) {
      if (!mark.text || !text.includes(mark.text)) continue;
      const allowed = ALLOWED.some(
        (rule) => rule.where.split('|').includes(where) && rule.allows(at, text, value, w),
      );
      if (!allowed) found.push(`${at || '(the whole answer)'} holds ${mark.label}`);
    }
  }
  return found;
}

/**
 * docs/decisions.md "What a block ends, and who hears of it": the blocker's tabs hear what their
 * block ended, naming the member blocked.
 */
function blockersOwn(event: string, payload: unknown, w: World): boolean {
  const { fromUserId, toUserId } = payload as { fromUserId?: string; toUserId?: string };
  return (
    w.viewerBlocks &&
    event.startsWith('friend:') &&
    fromUserId === w.viewer.user.id &&
    toUserId === w.hidden.user.id
  );
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const HEX = /[0-9a-f]{32}/g;
const TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g;

/**
 * An answer (or events) as comparable text: the value the call named becomes `‹value›` (a short one
 * only where it is a whole string), and what each call makes anew (ids, file names, times) a placeholder.
 */
function comparable(value: unknown, named: string): string {
  const swap = (text: string) =>
    named.length >= 8 ? text.split(named).join('‹value›') : text === named ? '‹value›' : text;
  const walk = (item: unknown): unknown => {
    if (typeof item === 'string')
      return swap(item).replace(UUID, '‹id›').replace(HEX, '‹file›').replace(TIME, '‹time›');
    if (Array.isArray(item)) return item.map(walk);
    if (item && typeof item === 'object')
      return Object.fromEntries(Object.entries(item).map(([key, inner]) => [key, walk(inner)]));
    return item;
  };
  return JSON.stringify(walk(value));
}

// ---------------------------------------------------------------------------------------------
// The sweep

const CASES = [
  { name: 'the hidden member blocked the viewer', hiddenBlocks: true, viewerBlocks: false },
  { name: 'the viewer blocked the hidden member', hiddenBlocks: false, viewerBlocks: true },
  { name: 'each blocked the other', hiddenBlocks: true, viewerBlocks: true },
] as const;

forEachDialect((dialect) => {
  let t: TestApp;
  let url = '';
  let moderator: Member;
  const routes: AppRoute[] = [];

  beforeAll(async () => {
    t = await buildTestApp({
      dialect,
      env: SWEEP_ENV,
      onRoute: (options) => {
        const methods = Array.isArray(options.method) ? options.method : [options.method];
        for (const method of methods)
          routes.push({ method, url: options.url, schema: options.schema ?? {} });
      },
    });
    url = await listen(t.app);
    moderator = await firstMember(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('has a case for every route and every client event', () => {
    expect(routes.length).toBeGreaterThan(40);
    const missing = routes
      .map((r) => route(r.method, r.url))
      .filter((key) => !(key in NOT_SWEPT))
      .filter((key) => !caseFor(routes.find((r) => route(r.method, r.url) === key) as AppRoute));
    expect(missing).toEqual([]);
    const events = [...Object.keys(CLIENT_EVENT_SCHEMAS), 'presence:leave'];
    expect(events.filter((event) => !(event in CLIENT_EVENT_CASES))).toEqual([]);
    // Every case names a route the app has.
    const known = new Set(routes.map((r) => route(r.method, r.url)));
    expect(
      [...Object.keys(ROUTE_CASES), ...Object.keys(NOT_SWEPT)].filter((key) => !known.has(key)),
    ).toEqual([]);
  });

  it.each(CASES)(
    'when $name, nothing names the hidden member and nothing tells them from absence',
    async (which) => {
      const w = await buildWorld(t.app, moderator);
      w.viewerBlocks = which.viewerBlocks;
      const { viewer, hidden, c, d } = w;
      const problems: string[] = [];
      const connectAs = (member: Member) =>
        connected(openSocket(url, { auth: { token: member.token } }));

      // The viewer's sockets: one watching everything before the block, one opened after it.
      const early = await connectAs(viewer);
      const earlySeen = record(early);
      for (const ownerId of [hidden, c, d, viewer].map((m) => m.user.id))
        expect(await join(early, 'gallery:join', { ownerId })).toMatchObject({ ok: true });
      for (const image of [...w.photos.hidden, ...w.photos.c, ...w.photos.d])
        expect(await join(early, 'image:join', { imageId: image.id })).toMatchObject({ ok: true });
      await early.timeout(5_000).emitWithAck('presence:join', { userId: viewer.user.id });

      if (which.hiddenBlocks) await block(t.app, hidden, viewer);
      if (which.viewerBlocks) await block(t.app, viewer, hidden);
      await vi.waitFor(async () => {
        const rooms = [galleryRoom(hidden.user.id), ...w.photos.hidden.map((i) => imageRoom(i.id))];
        for (const room of rooms)
          expect(
            (await t.app.realtime.io.in(room).fetchSockets()).map((s) => s.data.userId),
          ).not.toContain(viewer.user.id);
      });
      w.hiddenNotifications = await notificationIds(t.app, hidden, viewer);
      expect(w.hiddenNotifications.length).toBeGreaterThan(0);

      const late = await connectAs(viewer);
      const lateSeen = record(late);
      for (const member of [c, d])
        expect(await join(late, 'gallery:join', { ownerId: member.user.id })).toMatchObject({
          ok: true,
        });
      for (const image of [...w.photos.c, ...w.photos.d])
        expect(await join(late, 'image:join', { imageId: image.id })).toMatchObject({ ok: true });
      const allSeen: [string, Seen][] = [
        ['a socket opened before the block', earlySeen],
        ['a socket opened after it', lateSeen],
      ];

      /** Waits for C's upload on both sockets; answers what each heard before it, from `from`. */
      const heardUntilMarker = async (from: number[]) => {
        const marker = await uploadImage(t.app, c);
        const isMarker = ([event, payload]: [string, unknown]) =>
          event === 'gallery:image:created' && (payload as GalleryImage).id === marker.id;
        return Promise.all(
          allSeen.map(async ([name, seen], index) => {
            await vi.waitFor(() => expect(seen.some(isMarker)).toBe(true), { timeout: 5_000 });
            return [name, seen.slice(from[index], seen.findIndex(isMarker))] as const;
          }),
        );
      };
      /** Only what every watcher of a third member's photo hears may reach the viewer. */
      const onlyThirdPartyCounts = (what: string, heard: (readonly [string, Seen])[]) => {
        const thirds = new Set([c.user.id, d.user.id]);
        for (const [socket, events] of heard)
          for (const [event, payload] of events) {
            const owner = (payload as { owner?: { id?: string } }).owner?.id;
            if (event === 'gallery:image:updated' && owner && thirds.has(owner)) continue;
            problems.push(`${what} reached ${socket}: ${event} ${JSON.stringify(payload)}`);
          }
      };

      // ---- The hidden member acts while the viewer's sockets listen.
      // What the block told the blocker's tabs has arrived before this acknowledgement.
      await early.timeout(5_000).emitWithAck('gallery:leave', { ownerId: 'sweep-marker' });
      const actsFrom = allSeen.map(([, seen]) => seen.length);
      const hiddenTab = await connectAs(hidden);
      await hiddenTab.timeout(5_000).emitWithAck('presence:join', { userId: hidden.user.id });
      const [c1, c2] = w.photos.c as [GalleryImage, GalleryImage];
      const [d1] = w.photos.d as [GalleryImage];
      const [h1, h2] = w.photos.hidden as [GalleryImage, GalleryImage];
      await edit(t.app, hidden, c1, { likes: false });
      await edit(t.app, hidden, c1, { likes: true });
      await edit(t.app, hidden, c2, { likes: true });
      await edit(t.app, hidden, d1, { likes: true });
      expect(
        (await patchImage(t.app, hidden, w.photos.viewer[0]?.id ?? '', { likes: true })).statusCode,
      ).toBe(404);
      const recaptioned = await edit(t.app, hidden, h1, { caption: `later ${letters(12)}` });
      const moved = await edit(t.app, hidden, h2, { folder: `moved ${letters(8)}` });
      w.marks.push(
        { label: 'their new caption', text: recaptioned.caption },
        { label: 'their new folder', text: moved.folder },
      );
      const h3 = await uploadImage(t.app, hidden);
      markPhoto(w.marks, h3);
      w.photos.hidden.push(h3);
      const renamed = await patchProfile(t.app, asCookie(hidden), {
        username: uniqueUsername('fled'),
        firstName: capitalised(12),
        lastName: capitalised(12),
        favoriteQuote: `gone quiet ${letters(12)}`,
      });
      expect(renamed.statusCode).toBe(200);
      markMember(w.marks, renamed.json<{ user: User }>().user);
      const pictured = await patchProfileForm(t.app, hidden, {
        profilePic: { data: await pngImage(40, 40), filename: 'new.png', type: 'image/png' },
      });
      expect(pictured.statusCode).toBe(200);
      const hiddenNow = pictured.json<{ user: User }>().user;
      markMember(w.marks, hiddenNow);
      const hiddenAs = { ...hidden, user: hiddenNow, username: hiddenNow.username };
      await friendAction(t.app, hiddenAs, 'unfriend', c);
      await friendAction(t.app, hiddenAs, 'request', c);
      await friendAction(t.app, c, 'accept', hiddenAs);
      await friendAction(t.app, hiddenAs, 'cancel', d);
      await friendAction(t.app, hiddenAs, 'request', d);
      await report(t.app, hiddenAs, 'member', c.user.id);
      await report(t.app, hiddenAs, 'image', c2.id);
      await edit(t.app, c, h2, { likes: true });
      const removal = await report(t.app, c, 'image', h3.id);
      expect((await act(t.app, w.moderator, removal, 'remove-photo')).statusCode).toBe(200);
      await markRead(t.app, asBearer(hidden), { all: true });
      hiddenTab.disconnect();
      onlyThirdPartyCounts('the hidden member’s acts', await heardUntilMarker(actsFrom));
      w.hidden = hiddenAs;

      // ---- The viewer calls every route with every value.
      const values = valuesOf(w);
      const headers = { ...asCookie(viewer), ...asBearer(viewer) };
      const send = async (call: Call, as: Record<string, string> | null) => {
        const extra = as ?? { origin: ORIGIN };
        if (call.form) {
          const form =
            call.url === '/api/gallery' ? { ...call.form, image: await jpegPart() } : call.form;
          const { payload, headers: formHeaders } = await multipart(form);
          return t.app.inject({
            method: call.method as 'POST',
            url: call.url,
            headers: { ...formHeaders, ...extra },
            payload,
          });
        }
        return t.app.inject({
          method: call.method as 'GET',
          url: call.url,
          headers: extra,
          ...(call.query ? { query: call.query } : {}),
          ...(call.payload !== undefined ? { payload: call.payload as object } : {}),
        });
      };
      /** The call as the viewer, with the events it caused on the viewer's socket. */
      const asViewer = async (call: Call) => {
        const from = lateSeen.length;
        const response = await send(call, headers);
        // Events an answer causes are sent before it; the acknowledgement comes after them.
        await late.timeout(5_000).emitWithAck('gallery:leave', { ownerId: 'sweep-marker' });
        return { response, events: lateSeen.slice(from) };
      };
      const answerOf = (response: LightMyRequestResponse) => ({
        status: response.statusCode,
        body: readJson(response.body),
      });
      const headersOf = (response: LightMyRequestResponse) =>
        Object.fromEntries(
          Object.entries(response.headers).map(([name, value]) => [name, String(value)]),
        );

      const cases = routes
        .filter((r) => !(route(r.method, r.url) in NOT_SWEPT))
        .map((r) => ({ key: route(r.method, r.url), r, c: caseFor(r) as RouteCase }));
      const phaseOf = (x: (typeof cases)[number]) =>
        x.c.phase ?? (x.r.method === 'GET' || x.r.method === 'HEAD' ? 'read' : 'write');
      const sweepPhase = async (phase: Phase) => {
        for (const { key, c: routeCase } of cases.filter((x) => phaseOf(x) === phase)) {
          const chosen =
            routeCase.values === 'none' || !routeCase.calls
              ? [{ label: 'nothing', text: '', whose: 'third' } satisfies Value]
              : values.filter(
                  (v) =>
                    (routeCase.values !== 'hidden' || v.whose === 'hidden') &&
                    (!v.only || v.only.includes(key)),
                );
          for (const value of chosen) {
            const [method = '', path = ''] = key.split(' ');
            const calls = routeCase.calls?.(value.text, w) ?? [{ method, url: path, field: '' }];
            const absentCalls = value.absent ? routeCase.calls?.(value.absent.text, w) : undefined;
            for (const [index, call] of calls.entries()) {
              // What names no value is sent once, after every value.
              if (call.once && value !== chosen.at(-1)) continue;
              const where = call.once
                ? `${key} with ${call.field}`
                : `${key} with ${call.field || 'nothing'} = ${value.label}`;
              const { response, events } = await asViewer(call);
              // 503 is the push key before a relay has brought one (docs/decisions.md "Push through a relay").
              if (response.statusCode >= 500 && response.statusCode !== 503)
                problems.push(`${where} answered ${response.statusCode}: ${response.body}`);
              if (routeCase.public && value.text) {
                const signedOut = await send(call, null);
                const [member, anyone] = [answerOf(response), answerOf(signedOut)];
                if (comparable(member, value.text) !== comparable(anyone, value.text))
                  problems.push(
                    `${where} answered the member otherwise than the signed out: ${JSON.stringify(member)} against ${JSON.stringify(anyone)}`,
                  );
              } else {
                for (const found of namings(key, answerOf(response).body, w))
                  problems.push(`${where}: ${found}`);
                for (const found of namings(key, headersOf(response), w))
                  problems.push(`${where}: header ${found}`);
              }
              for (const [event, payload] of events)
                if (!blockersOwn(event, payload, w))
                  for (const found of namings('socket', payload, w))
                    problems.push(`${where}: ${event}, which it caused: ${found}`);
              if (key === 'GET /api/auth/export') {
                expect(response.statusCode).toBe(200);
                for (const entry of unzip(response.rawPayload))
                  if (/\.(json|txt)$/.test(entry.name))
                    for (const found of namings(entry.name, readJson(entry.data.toString()), w))
                      problems.push(`${where}: ${entry.name}: ${found}`);
              }
              const absentCall = absentCalls?.[index];
              if (!value.absent || !absentCall || call.once || routeCase.public) continue;
              const seen = comparable({ ...answerOf(response), events }, value.text);
              const differs = DIFFERS_ON_PURPOSE[key];
              if (differs?.when(value)) {
                if (differs.answers) expect(answerOf(response), where).toEqual(differs.answers);
                continue;
              }
              const absent = await asViewer(absentCall);
              const unseen = comparable(
                { ...answerOf(absent.response), events: absent.events },
                value.absent.text,
              );
              if (seen !== unseen)
                problems.push(
                  `${where} tells it from ${value.absent.label}: ${seen} against ${unseen}`,
                );
            }
          }
        }
      };

      await sweepPhase('read');
      await sweepPhase('write');

      // ---- Client events, each naming every value, on the socket opened after the block.
      const ask = (event: string, payload: object | null) =>
        (payload
          ? late.timeout(5_000).emitWithAck(event as 'gallery:join', payload)
          : late.timeout(5_000).emitWithAck(event as 'presence:leave')) as Promise<unknown>;
      for (const [event, payloadOf] of Object.entries(CLIENT_EVENT_CASES)) {
        for (const value of payloadOf ? values.filter((v) => !v.only) : values.slice(0, 1)) {
          const where = `socket ${event} naming ${value.label}`;
          const ack = await ask(event, payloadOf ? payloadOf(value.text) : null);
          for (const found of namings('socket', ack, w)) problems.push(`${where}: ${found}`);
          const leave = { 'gallery:join': 'gallery:leave', 'image:join': 'image:leave' }[event];
          if (payloadOf && leave) await ask(leave, payloadOf(value.text));
          if (!payloadOf || !value.absent) continue;
          const absent = await ask(event, payloadOf(value.absent.text));
          if (leave) await ask(leave, payloadOf(value.absent.text));
          if (comparable(ack, value.text) !== comparable(absent, value.absent.text))
            problems.push(
              `${where} tells it from ${value.absent.label}: ${JSON.stringify(ack)} against ${JSON.stringify(absent)}`,
            );
        }
      }
      // The leaves above left the third members' rooms too: the socket watches them again.
      for (const member of [c, d]) await join(late, 'gallery:join', { ownerId: member.user.id });
      for (const image of [...w.photos.c, ...w.photos.d])
        await join(late, 'image:join', { imageId: image.id });

      await sweepPhase('export');
      // The viewer blocks the hidden member (again, or back): "every answer alike".
      w.viewerBlocks = true;
      await sweepPhase('block');
      await early.timeout(5_000).emitWithAck('gallery:leave', { ownerId: 'sweep-marker' });

      // ---- The hidden member leaves: the viewer is not told, not even of notifications gone.
      const leaveFrom = allSeen.map(([, seen]) => seen.length);
      const gone = await t.app.inject({
        method: 'DELETE',
        url: '/api/auth/account',
        headers: asCookie(hidden),
        payload: { username: w.hidden.username, password: hidden.password },
      });
      expect(gone.statusCode).toBe(200);
      onlyThirdPartyCounts('the hidden member’s deletion', await heardUntilMarker(leaveFrom));

      await sweepPhase('last');

      for (const [socket, seen] of allSeen)
        for (const [event, payload] of seen) {
          if (blockersOwn(event, payload, w)) continue;
          for (const found of namings('socket', payload, w))
            problems.push(`${socket} heard ${event}: ${found}`);
        }

      expect(problems).toEqual([]);
    },
    240_000,
  );
});

/**
 * Calls whose answer for some of the hidden member's values differs, on purpose, from one naming
 * nothing (docs/decisions.md "What a block cannot hide"), with the answer they give then, where it
 * is one.
 */
const DIFFERS_ON_PURPOSE: Record<
  string,
  { when: (value: Value) => boolean; answers?: { status: number; body: unknown } }
> = {
  // A username is taken whoever holds it: free again for the name they left.
  'GET /api/auth/check-username': { when: (value) => value.label.endsWith('username') },
  'HEAD /api/auth/check-username': { when: (value) => value.label.endsWith('username') },
  // Any existing member's id may be blocked, and it answers as every block does
  // (docs/decisions.md "The block list names whom one blocked as one knew them").
  'POST /api/users/blocks': {
    when: (value) => value.label === "the hidden member's id",
    answers: { status: 200, body: { ok: true } },
  },
};
