/**
 * Runs fuzz cases against an app and checks what must hold for every one (docs/product.md
 * "Errors"): no 5xx, every 4xx is `{error}` with a string, only an image's owner edits or deletes
 * it, every stored push endpoint is one the relay's sender reads as the checks read it, and
 * between batches a member who is not fuzzed still signs in, edits the profile, reads a gallery and
 * makes a friend call.
 */
import { randomBytes } from 'node:crypto';
import url from 'node:url';
import zlib from 'node:zlib';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import fc from 'fast-check';
import {
  ORIGIN,
  asBearer,
  asCookie,
  multipart,
  p256PublicKey,
  pngImage,
  signupUser,
  type Member,
} from '../factories.ts';
import { isAllowedPushEndpoint } from '../../../src/contracts/pushHosts.ts';
import { issueSession } from '../../src/features/auth/service.ts';
import type { FuzzApp, FuzzRoute } from './app.ts';
import { makePictures } from './multipart.ts';
import {
  type FuzzContext,
  type FuzzImage,
  type FuzzMember,
  type Role,
  type RouteGenerator,
  type RouteRequest,
  generatorFor,
  routeKey,
} from './routes.ts';
import { anyString } from './values.ts';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** Who sends a case, and with which credentials. */
type Credential =
  | 'cookie'
  | 'bearer'
  | 'cookie-without-origin'
  | 'cookie-foreign-origin'
  | 'none'
  | 'garbage-cookie'
  | 'garbage-bearer';

type Method = (typeof METHODS)[number];

export interface FuzzCase {
  route: string;
  actor: 'owner' | 'other' | 'anonymous';
  credential: Credential;
  /** How many copies of the request are sent at once (races between a member's own tabs). */
  copies: number;
  request: InjectOptions & { method: Method; url: string; headers: Record<string, string> };
}

function credentialHeaders(member: FuzzMember | undefined, credential: Credential) {
  switch (credential) {
    case 'cookie':
      return member ? asCookie(member) : {};
    case 'bearer':
      return member ? asBearer(member) : {};
    case 'cookie-without-origin':
      return member ? { cookie: member.cookie } : {};
    case 'cookie-foreign-origin':
      return member ? { cookie: member.cookie, origin: 'https://evil.test' } : {};
    case 'garbage-cookie':
      return { cookie: `orbit_session=${randomBytes(8).toString('hex')}; x=%ff`, origin: ORIGIN };
    case 'garbage-bearer':
      return { authorization: 'Bearer not-a-token' };
    case 'none':
      return {};
  }
}

/** Headers any request may carry, in the shapes that trip parsers: ranges, encodings, dates, proxies. */
function extraHeaders(): fc.Arbitrary<Record<string, string>> {
  return fc.record(
    {
      'accept-encoding': fc.constantFrom(
        'br',
        'gzip;q=0, br;q=0',
        'identity;q=0',
        '*;q=0',
        'x-unknown',
        '',
      ),
      'content-encoding': fc.constantFrom('gzip', 'br', 'deflate', 'x-unknown', 'gzip, gzip'),
      range: fc.constantFrom(
        'bytes=0-1',
        'bytes=999999-',
        'bytes=5-1',
        'bytes=-0',
        'bytes=a-b',
        'lines=1-2',
        'bytes=0-1,2-3',
      ),
      'if-modified-since': fc.constantFrom('yesterday', 'Thu, 01 Jan 1970 00:00:00 GMT', ''),
      'if-none-match': fc.constantFrom('*', '"x"', ''),
      accept: fc.constantFrom('text/html', 'application/json', '*/*', 'image/webp', ';;'),
      'x-forwarded-for': fc.constantFrom('1.2.3.4', 'not-an-ip', '::1, 10.0.0.1'),
      'x-forwarded-proto': fc.constantFrom('https', 'gopher'),
      'x-forwarded-host': fc.constantFrom('evil.test', 'localhost:5000'),
      authorization: fc.constantFrom(
        'Bearer',
        'Bearer ',
        'bearer x',
        'Basic YTpi',
        `Bearer ${'a'.repeat(5_000)}`,
      ),
      'x-long': fc.constant('a'.repeat(8_000)),
    },
    { requiredKeys: [] },
  );
}

/** The arbitrary of whole cases: a route's request, from someone, with a method and credentials. */
function caseArbitrary(
  ctx: FuzzContext,
  generators: ReadonlyArray<{ route: FuzzRoute; generate: RouteGenerator }>,
): fc.Arbitrary<FuzzCase> {
  const perRoute = generators.map(({ route, generate }) =>
    fc.record({
      route: fc.constant(route),
      request: generate(ctx),
      actor: fc.constantFrom<FuzzCase['actor']>('owner', 'owner', 'other', 'anonymous'),
      credential: fc.oneof(
        { arbitrary: fc.constantFrom<Credential>('cookie', 'bearer'), weight: 8 },
        {
          arbitrary: fc.constantFrom<Credential>(
            'cookie-without-origin',
            'cookie-foreign-origin',
            'garbage-cookie',
            'garbage-bearer',
            'none',
          ),
          weight: 1,
        },
      ),
      method: fc.oneof(
        { arbitrary: fc.constant(route.method as Method), weight: 12 },
        { arbitrary: fc.constantFrom(...METHODS), weight: 1 },
      ),
      requestId: fc.oneof(
        { arbitrary: fc.constant(undefined), weight: 8 },
        { arbitrary: anyString(80), weight: 1 },
      ),
      copies: fc.oneof(
        { arbitrary: fc.constant(1), weight: 9 },
        { arbitrary: fc.constantFrom(2, 3), weight: 1 },
      ),
      extra: fc.oneof(
        { arbitrary: fc.constant({}), weight: 3 },
        { arbitrary: extraHeaders(), weight: 1 },
      ),
    }),
  );
  return fc
    .oneof(...perRoute)
    .map(({ route, request, actor, credential, method, requestId, extra, copies }) =>
      toCase(
        ctx,
        route,
        request,
        actor,
        actor === 'anonymous' ? 'none' : credential,
        method,
        requestId,
        extra,
        copies,
      ),
    );
}

function toCase(
  ctx: FuzzContext,
  route: FuzzRoute,
  request: RouteRequest,
  actor: FuzzCase['actor'],
  credential: Credential,
  method: Method,
  requestId: string | undefined,
  extra: Record<string, string>,
  copies: number,
): FuzzCase {
  const member = actor === 'anonymous' ? undefined : ctx.members[actor];
  const headers: Record<string, string> = {
    ...extra,
    ...credentialHeaders(member, credential),
    ...request.headers,
  };
  if (request.contentType !== undefined) headers['content-type'] = request.contentType;
  if (requestId !== undefined) headers['x-request-id'] = requestId;
  const url = request.query ? `${request.path}?${request.query}` : request.path;
  const options: FuzzCase['request'] = { method, url, headers };
  if (request.payload !== undefined) {
    options.payload =
      typeof request.payload === 'string' || Buffer.isBuffer(request.payload)
        ? request.payload
        : JSON.stringify(request.payload);
    if (headers['content-type'] === undefined && !Buffer.isBuffer(request.payload))
      headers['content-type'] = 'application/json';
  }
  return { route: routeKey(route), actor, credential, copies, request: options };
}

/** The case as a reader needs it to replay it. */
function describeCase(fuzz: FuzzCase, response?: LightMyRequestResponse): string {
  const { payload, ...request } = fuzz.request;
  const body =
    payload === undefined
      ? undefined
      : Buffer.isBuffer(payload)
        ? `<${payload.length} bytes> ${JSON.stringify(payload.subarray(0, 300).toString('latin1'))}`
        : typeof payload === 'string'
          ? JSON.stringify(payload.slice(0, 600))
          : '<not text>';
  const lines = [
    `route ${fuzz.route} as ${fuzz.actor} (${fuzz.credential})${fuzz.copies > 1 ? `, ${fuzz.copies} copies at once` : ''}`,
    `${request.method} ${request.url.slice(0, 600)}`,
    `headers ${JSON.stringify(request.headers)}`,
  ];
  if (body !== undefined) lines.push(`body ${body}`);
  if (response) {
    let text: string;
    try {
      text = bodyText(response);
    } catch {
      text = response.body;
    }
    lines.push(
      `→ ${response.statusCode} ${JSON.stringify(response.headers)} ${text.slice(0, 600)}`,
    );
  }
  return lines.join('\n  ');
}

/** The image a gallery path names, if it is one of the context's. */
function targetedImage(ctx: FuzzContext, url: string): FuzzImage | undefined {
  const match = /^\/api\/gallery\/([^?]+)/.exec(url);
  if (!match?.[1] || match[1] === 'reorder' || match[1] === 'folders') return undefined;
  let ref = match[1];
  try {
    ref = decodeURIComponent(ref);
  } catch {
    return undefined;
  }
  return ctx.images.find((image) => image.refs.includes(ref));
}

/** The answer's text, decompressed when the case asked for compression and got it. */
function bodyText(response: LightMyRequestResponse): string {
  const raw = response.rawPayload;
  switch (response.headers['content-encoding']) {
    case 'br':
      return zlib.brotliDecompressSync(raw).toString();
    case 'gzip':
      return zlib.gunzipSync(raw).toString();
    case 'deflate':
      return zlib.inflateSync(raw).toString();
    case undefined:
    default:
      return response.body;
  }
}

/** What is wrong with the answer to a case, or null. */
function problemWith(
  ctx: FuzzContext,
  fuzz: FuzzCase,
  response: LightMyRequestResponse,
): string | null {
  const status = response.statusCode;
  if (status >= 500) return `answered ${status}`;
  if (status >= 400 && fuzz.request.method !== 'HEAD') {
    let body: unknown;
    try {
      body = JSON.parse(bodyText(response));
    } catch {
      return `answered ${status} without a JSON body`;
    }
    if (
      !body ||
      typeof body !== 'object' ||
      typeof (body as { error?: unknown }).error !== 'string'
    )
      return `answered ${status} without {error: string}`;
  }
  // docs/product.md "Moderation": the owner is the install's moderator, the other member is not.
  if (status < 400 && fuzz.actor === 'other' && fuzz.request.url.startsWith('/api/moderation'))
    return `answered ${status} to a moderation call of a member who is not a moderator`;
  // docs/decisions.md "Only the owner edits a gallery": another member's picture is never theirs.
  if (status < 400 && fuzz.actor !== 'anonymous') {
    const image = targetedImage(ctx, fuzz.request.url);
    const method = fuzz.request.method;
    if (image && image.owner !== fuzz.actor) {
      if (method === 'DELETE') return `deleted the ${image.owner}'s image as the ${fuzz.actor}`;
      if (method === 'PATCH') {
        const sent = parseJson(fuzz.request.payload);
        if (sent && typeof sent === 'object' && ('caption' in sent || 'folder' in sent))
          return `edited the ${image.owner}'s image as the ${fuzz.actor}`;
      }
    }
  }
  return null;
}

function parseJson(payload: unknown): unknown {
  if (typeof payload !== 'string') return undefined;
  try {
    return JSON.parse(payload);
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Members and their things

function asFuzzMember(member: Member): FuzzMember {
  return {
    id: member.user.id,
    username: member.username,
    email: member.email,
    password: member.password,
    token: member.token,
    cookie: member.cookie,
  };
}

async function upload(app: FastifyInstance, member: FuzzMember, folder: string) {
  const { payload, headers } = await multipart({
    image: { data: await pngImage(32, 24), filename: 'p.png', type: 'image/png' },
    folder,
  });
  const response = await app.inject({
    method: 'POST',
    url: '/api/gallery',
    headers: { ...headers, ...asBearer(member) },
    payload,
  });
  if (response.statusCode !== 201)
    throw new Error(`upload answered ${response.statusCode}: ${response.body}`);
}

/**
 * The member's current name and a live session, signing in again when the fuzz ended one; a new
 * member in their place when a case deleted their account.
 */
async function refreshMember(app: FastifyInstance, member: FuzzMember): Promise<FuzzMember> {
  const row = await app.db
    .selectFrom('users')
    .select(['username', 'email'])
    .where('id', '=', member.id)
    .executeTakeFirst();
  if (!row) return asFuzzMember(await signupUser(app));
  const current = { ...member, username: row.username, email: row.email };
  const me = await app.inject({ method: 'GET', url: '/api/users/me', headers: asBearer(current) });
  if (me.statusCode === 200) return current;
  // A new session straight from the service: a case may have signed out or changed the password.
  const session = await issueSession(app.sessions, member.id, false);
  return {
    ...current,
    token: session.token,
    cookie: `${app.config.session.cookie}=${session.token}`,
  };
}

async function refreshMembers(app: FastifyInstance, ctx: FuzzContext): Promise<void> {
  for (const role of Object.keys(ctx.members) as Role[]) {
    ctx.members[role] = await refreshMember(app, ctx.members[role]);
  }
}

/** Calls that may end the sender's sessions or change what names them. */
const SESSION_CHANGES = new Set([
  'POST /api/auth/logout',
  'PATCH /api/auth/password',
  'POST /api/auth/forgot-password/reset',
  'PATCH /api/auth/profile',
  'DELETE /api/auth/account',
]);

/** Re-reads the members, images, keys, notifications and reports the generators draw from. */
async function refreshContext(app: FastifyInstance, ctx: FuzzContext): Promise<void> {
  // A case may have had the other member suspended (the owner is the moderator): lift it, as the
  // operator would, so the next batch fuzzes as them again.
  await app.db
    .updateTable('users')
    .set({ suspended_at: null, suspension_reason: '' })
    .where('id', 'in', [ctx.members.owner.id, ctx.members.other.id])
    .execute();
  await refreshMembers(app, ctx);
  const roleOf = new Map(Object.entries(ctx.members).map(([role, m]) => [m.id, role as Role]));
  for (const role of ['owner', 'other'] as const) {
    const count = await app.db
      .selectFrom('gallery_images')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('owner_id', '=', ctx.members[role].id)
      .executeTakeFirstOrThrow();
    if (Number(count.n) < 2) await upload(app, ctx.members[role], 'Fuzz');
  }
  const rows = await app.db
    .selectFrom('gallery_images')
    .select(['id', 'owner_id', 'display_file', 'thumb_file'])
    .execute();
  ctx.images = rows.flatMap((row) => {
    const owner = roleOf.get(row.owner_id);
    if (!owner) return [];
    const name = row.display_file.split('/').pop() ?? row.display_file;
    return [
      {
        id: row.id,
        owner,
        refs: [row.id, row.display_file, name, `/uploads/${row.display_file}`],
      },
    ];
  });
  ctx.mediaKeys = rows.flatMap((row) => [row.display_file, row.thumb_file]);
  const notifications = await app.db.selectFrom('notifications').select('id').limit(50).execute();
  ctx.notificationIds = notifications.map((row) => String(row.id));
  const reports = await app.db
    .selectFrom('reports')
    .select('id')
    .orderBy('id', 'desc')
    .limit(50)
    .execute();
  ctx.reportIds = reports.map((row) => String(row.id));
}

/** The witness's pictures as the database holds them: what no one else's call may change. */
async function witnessImages(app: FastifyInstance, ctx: FuzzContext) {
  return app.db
    .selectFrom('gallery_images')
    .select(['id', 'caption', 'folder', 'position', 'display_file'])
    .where('owner_id', '=', ctx.members.witness.id)
    .orderBy('id')
    .execute();
}

/**
 * Three members (the fuzzed owner, another member, an untouched witness) with pictures, news and
 * reports. The owner signs up first, so the owner is the install's moderator and the other member
 * is refused the moderation calls.
 */
export async function setUpContext(fuzz: FuzzApp): Promise<FuzzContext> {
  const { app } = fuzz;
  const owner = await signupUser(app, { securityQuestion: 'Pet?', securityAnswer: 'Rex' });
  const [other, witness] = await Promise.all([signupUser(app), signupUser(app)]);
  const members = {
    owner: asFuzzMember(owner),
    other: asFuzzMember(other),
    witness: asFuzzMember(witness),
  };
  for (const member of Object.values(members)) await upload(app, member, 'Trips');
  await upload(app, members.witness, 'Home');
  // A friend request and its notification, so notification ids and friend states are real.
  await app.inject({
    method: 'POST',
    url: '/api/users/friends/request',
    headers: asBearer(members.other),
    payload: { toUserId: members.owner.id },
  });
  // Reports of each kind for the moderator to act on.
  const ownerPhoto = await app.db
    .selectFrom('gallery_images')
    .select('id')
    .where('owner_id', '=', members.owner.id)
    .executeTakeFirstOrThrow();
  for (const [reporter, body] of [
    [members.other, { kind: 'image', targetId: ownerPhoto.id, reason: 'spam' }],
    [members.owner, { kind: 'member', targetId: members.other.id, reason: 'harassment' }],
  ] as const) {
    const response = await app.inject({
      method: 'POST',
      url: '/api/reports',
      headers: asBearer(reporter),
      payload: body,
    });
    if (response.statusCode !== 201)
      throw new Error(`report answered ${response.statusCode}: ${response.body}`);
  }
  // The key a relay would have brought, so the public key route answers.
  await app.db
    .insertInto('server_settings')
    .values({
      key: 'push.vapid_public_key',
      value: p256PublicKey(),
      updated_at: new Date().toISOString(),
    })
    .execute();
  const ctx: FuzzContext = {
    pictures: await makePictures(),
    members,
    images: [],
    mediaKeys: [],
    notificationIds: [],
    reportIds: [],
    pushKey: { p256dh: p256PublicKey(), auth: randomBytes(16).toString('base64url') },
    metricsToken: fuzz.config.metrics.token ?? '',
  };
  await refreshContext(app, ctx);
  return ctx;
}

/**
 * A member no case acts as does what members do: signs in, reads the session, edits the profile,
 * reads a gallery and makes friend calls. Throws with the step that failed.
 */
async function witnessStillServed(app: FastifyInstance, ctx: FuzzContext): Promise<void> {
  const witness = ctx.members.witness;
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { origin: ORIGIN },
    payload: { identifier: witness.username, password: witness.password },
  });
  if (login.statusCode !== 200)
    throw new Error(`witness login answered ${login.statusCode}: ${login.body}`);
  const token = login.json<{ token: string }>().token;
  const cookie = login.cookies.find((item) => item.name === 'orbit_session');
  const steps: Array<[string, InjectOptions]> = [
    [
      'session check',
      {
        method: 'GET',
        url: '/api/auth/me',
        headers: { cookie: `orbit_session=${cookie?.value ?? ''}` },
      },
    ],
    [
      'profile edit',
      {
        method: 'PATCH',
        url: '/api/auth/profile',
        headers: { cookie: `orbit_session=${cookie?.value ?? ''}`, origin: ORIGIN },
        payload: { favoriteQuote: `Still here ${Date.now()}` },
      },
    ],
    [
      'own gallery',
      { method: 'GET', url: '/api/gallery', headers: { authorization: `Bearer ${token}` } },
    ],
    [
      'owner gallery',
      {
        method: 'GET',
        url: `/api/gallery?userId=${ctx.members.owner.id}`,
        headers: { authorization: `Bearer ${token}` },
      },
    ],
    [
      'friend status',
      {
        method: 'GET',
        url: `/api/users/friends/status?userId=${ctx.members.owner.id}`,
        headers: { authorization: `Bearer ${token}` },
      },
    ],
    [
      'friend counts',
      {
        method: 'GET',
        url: '/api/users/friends/counts',
        headers: { authorization: `Bearer ${token}` },
      },
    ],
  ];
  for (const [name, options] of steps) {
    const response = await app.inject(options);
    if (response.statusCode !== 200)
      throw new Error(`witness ${name} answered ${response.statusCode}: ${response.body}`);
  }
  const session = await app.inject({
    method: 'GET',
    url: '/api/auth/me',
    headers: { authorization: `Bearer ${token}` },
  });
  if (session.json<{ user: { id: string } | null }>().user?.id !== witness.id)
    throw new Error('witness session check did not answer the witness');
  // Signing out again keeps the witness's sessions from piling up over the batches.
  await app.inject({
    method: 'POST',
    url: '/api/auth/logout',
    headers: { authorization: `Bearer ${token}` },
  });
}

// ---------------------------------------------------------------------------------------------
// Running

export interface FuzzStats {
  cases: number;
  statuses: Map<number, number>;
  routes: Map<string, number>;
  /** Statuses per route: `route status` → count. */
  outcomes: Map<string, number>;
}

export const newStats = (): FuzzStats => ({
  cases: 0,
  statuses: new Map(),
  routes: new Map(),
  outcomes: new Map(),
});

function routeGenerators(routes: readonly FuzzRoute[]) {
  return routes.flatMap((route) => {
    const generate = generatorFor(route);
    return generate ? [{ route, generate }] : [];
  });
}

export interface BatchOptions {
  runs: number;
  seed: number;
  stats: FuzzStats;
  /** Only these routes (all by default). */
  only?: (route: FuzzRoute) => boolean;
}

/**
 * One batch of cases as a fast-check property. A failing case is shrunk and reported with the
 * request that shows it, the seed and the path to replay it.
 */
export async function runBatch(fuzz: FuzzApp, ctx: FuzzContext, options: BatchOptions) {
  const generators = routeGenerators(fuzz.routes.filter(options.only ?? (() => true)));
  const property = fc.asyncProperty(caseArbitrary(ctx, generators), async (fuzzCase) => {
    const responses = await Promise.all(
      Array.from({ length: fuzzCase.copies }, () => fuzz.app.inject(fuzzCase.request)),
    );
    for (const response of responses) {
      options.stats.cases += 1;
      const { statuses, routes, outcomes } = options.stats;
      statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
      routes.set(fuzzCase.route, (routes.get(fuzzCase.route) ?? 0) + 1);
      const outcome = `${fuzzCase.route} ${response.statusCode}`;
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      const problem = problemWith(ctx, fuzzCase, response);
      if (problem) throw new Error(`${problem}\n  ${describeCase(fuzzCase, response)}`);
    }
    const response = responses[0] as LightMyRequestResponse;
    // A case that signed its member out leaves the next ones a session to fuzz with.
    if (response.statusCode < 400 && SESSION_CHANGES.has(fuzzCase.route))
      await refreshMembers(fuzz.app, ctx);
  });
  await fc.assert(property, {
    numRuns: options.runs,
    seed: options.seed,
    includeErrorInReport: true,
  });
}

/** The seed of one batch: batches of different runs never share one. */
const batchSeed = (seed: number, batch: number) => (Math.imul(seed, 0x9e3779b1) + batch) | 0;

/** FUZZ_RUNS and FUZZ_SEED from the environment, with the defaults given. */
export function fuzzSettings(defaultRuns: number): { runs: number; seed: number } {
  const runs = Number(process.env.FUZZ_RUNS ?? defaultRuns);
  const seed = Number(process.env.FUZZ_SEED ?? 0x0b17);
  if (!Number.isInteger(runs) || runs < 1)
    throw new Error(`FUZZ_RUNS must be a positive integer, not ${process.env.FUZZ_RUNS}`);
  if (!Number.isInteger(seed))
    throw new Error(`FUZZ_SEED must be an integer, not ${process.env.FUZZ_SEED}`);
  return { runs, seed };
}

/**
 * Stored push endpoints the relay would not send to, or whose host and path web-push's
 * `url.parse()` reads otherwise than `new URL()` (docs/decisions.md "Push through a relay").
 */
async function pushEndpointsReadTwoWays(fuzz: FuzzApp): Promise<string[]> {
  const rows = await fuzz.app.db.selectFrom('push_subscriptions').select('endpoint').execute();
  return rows
    .map((row) => row.endpoint)
    .filter((endpoint) => {
      if (!isAllowedPushEndpoint(endpoint, fuzz.config.pushEndpoints)) return true;
      const sent = url.parse(endpoint);
      const checked = new URL(endpoint);
      return sent.hostname !== checked.hostname || sent.path !== checked.pathname + checked.search;
    });
}

/** One batch of a fuzz run: its number, its seed, and what went wrong in it (nothing when it passed). */
export interface BatchResult {
  batch: number;
  seed: number;
  problems: string[];
}

/**
 * `runs` cases in batches of `batchSize`, each batch on a seed of its own. After each batch the
 * member the fuzz never acts as is still served, with the same pictures, every stored push
 * endpoint reads one way, and the members' sessions are refreshed. Yields each batch's result, so
 * a caller may stop at the first problem or carry on.
 */
export async function* fuzzBatches(
  fuzz: FuzzApp,
  ctx: FuzzContext,
  options: { runs: number; batchSize: number; seed: number; stats: FuzzStats },
): AsyncGenerator<BatchResult> {
  const pictures = JSON.stringify(await witnessImages(fuzz.app, ctx));
  for (let done = 0, batch = 0; done < options.runs; done += options.batchSize, batch += 1) {
    const seed = batchSeed(options.seed, batch);
    const problems: string[] = [];
    const runs = Math.min(options.batchSize, options.runs - done);
    await runBatch(fuzz, ctx, { runs, seed, stats: options.stats }).catch((error: unknown) =>
      problems.push((error as Error).message),
    );
    try {
      await witnessStillServed(fuzz.app, ctx);
      if (JSON.stringify(await witnessImages(fuzz.app, ctx)) !== pictures)
        problems.push("the witness's pictures changed");
    } catch (error) {
      problems.push(`the witness: ${(error as Error).message}`);
    }
    for (const endpoint of await pushEndpointsReadTwoWays(fuzz))
      problems.push(`a stored push endpoint the relay would read otherwise: ${endpoint}`);
    await refreshContext(fuzz.app, ctx);
    yield { batch, seed, problems };
  }
}
