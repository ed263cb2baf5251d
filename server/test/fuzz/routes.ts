/**
 * One request generator per route. Most are derived from the route's declared contracts (body,
 * query and path parameters as JSON Schema); the routes whose request no contract describes (the
 * multipart forms, the wildcard paths) have a hand-written one, and a route that needs one and has
 * none is reported by `missingGenerators`.
 */
import fc from 'fast-check';
import { z } from 'zod';
import { AS_BROWSERS_WRITE, NOT_AS_BROWSERS_WRITE, NOT_A_PUSH_SERVICE } from '../push-endpoints.ts';
import type { FuzzRoute } from './app.ts';
import { type FormSpec, type Pictures, type RawBody, formBody } from './multipart.ts';
import { type Hints, type JsonSchema, fittingValueFor, valueFor } from './schema.ts';
import { anyJson, anyString, deepNesting, encodeLoose } from './values.ts';

export type Role = 'owner' | 'other' | 'witness';

export interface FuzzMember {
  id: string;
  username: string;
  email: string;
  password: string;
  token: string;
  cookie: string;
}

export interface FuzzImage {
  id: string;
  owner: Role;
  /** Every way a path may name it: its id, its file name, its address. */
  refs: string[];
}

/** What the generators draw real values from: the members, their pictures and notifications. */
export interface FuzzContext {
  pictures: Pictures;
  members: Record<Role, FuzzMember>;
  images: FuzzImage[];
  /** Media keys of the pictures (what follows /uploads/). */
  mediaKeys: string[];
  notificationIds: string[];
  /** Ids of reports, so the moderation actions find real ones. */
  reportIds: string[];
  pushKey: { p256dh: string; auth: string };
  metricsToken: string;
}

/** The route-specific part of a request; who sends it and how is added by `fuzzCase`. */
export interface RouteRequest {
  path: string;
  query?: string;
  /** An object is sent as JSON; a string or buffer as it is, with `contentType`. */
  payload?: unknown;
  contentType?: string;
  /** The path parameters as generated (decoded), for the owner rules. */
  params?: Record<string, string>;
  headers?: Record<string, string>;
}

export type RouteGenerator = (ctx: FuzzContext) => fc.Arbitrary<RouteRequest>;

export const routeKey = (route: Pick<FuzzRoute, 'method' | 'url'>) =>
  `${route.method} ${route.url}`;

// ---------------------------------------------------------------------------------------------
// Hints: real values for fields by name, so cases get past "not found" as often as not.

const ID_FIELDS = new Set(['userId', 'toUserId', 'fromUserId', 'accountId']);
const PASSWORD_FIELDS = new Set(['password', 'newPassword', 'currentPassword']);
/** Passwords that meet the policy and that a case may set: the members' own, or this one. */
const PASSWORDS = ['Orbit#Pass1', 'Orbit#Pass2'];

function hintsFor(ctx: FuzzContext): Hints {
  const members = Object.values(ctx.members);
  const ids = fc.constantFrom(...members.map((member) => member.id));
  const names = fc.constantFrom(...members.map((member) => member.username));
  const refs = ctx.images.flatMap((image) => image.refs);
  const imageRefs = refs.length ? fc.constantFrom(...refs) : fc.constant('none');
  const imageIds = ctx.images.length
    ? fc.constantFrom(...ctx.images.map((image) => image.id))
    : fc.constant('none');
  const notifications = ctx.notificationIds.length
    ? fc.constantFrom(...ctx.notificationIds)
    : fc.constant('1');
  const reports = ctx.reportIds.length ? fc.constantFrom(...ctx.reportIds) : fc.constant('1');
  // What a report may name: the fuzzed members and their photos, never the witness or theirs, so
  // no case can have the witness's photo removed or the witness suspended.
  const fuzzed = [ctx.members.owner.id, ctx.members.other.id];
  const targets = fc.constantFrom(
    ...fuzzed,
    ...ctx.images.filter((image) => image.owner !== 'witness').map((image) => image.id),
  );
  return (field) => {
    if (ID_FIELDS.has(field)) return ids;
    if (PASSWORD_FIELDS.has(field)) return fc.constantFrom(...PASSWORDS, 'short', 'a'.repeat(200));
    switch (field) {
      case 'username':
        return fc.oneof(names, fc.stringMatching(/^[a-z][a-z0-9._-]{2,19}$/));
      case 'identifier':
        return fc.oneof(names, fc.constantFrom(...members.map((member) => member.email)));
      case 'email':
        return fc.oneof(
          fc.emailAddress(),
          fc.constantFrom(...members.map((member) => member.email)),
        );
      case 'ref':
        return imageRefs;
      case 'order':
        return imageIds;
      case 'ids':
        return notifications;
      // A notification cursor, a report, or the image a gallery move names or goes before.
      case 'id':
      case 'before':
        return fc.oneof(notifications, imageIds, reports);
      case 'targetId':
        return targets;
      case 'after':
        return imageIds;
      case 'cursor':
        return fc.oneof(
          fc.integer({ min: -50, max: 50 }).map((n) => Buffer.from(`p${n}`).toString('base64url')),
          fc.constantFrom('', 'p0', 'cDEuNQ', Buffer.from('p99999999999').toString('base64url')),
        );
      case 'endpoint':
        return fc.oneof(
          fc.constantFrom(
            'https://push.example.test/send/fuzz',
            'http://localhost/send/fuzz',
            'https://127.0.0.1/x',
            'https://[::1]/x',
            'https://10.0.0.1/x',
            'https://169.254.169.254/latest',
            'http://example.test/x',
            'javascript:alert(1)',
          ),
          // Texts two URL parsers read as two hosts, and endpoints as browsers write them.
          {
            arbitrary: fc.constantFrom(
              ...[...NOT_AS_BROWSERS_WRITE, ...NOT_A_PUSH_SERVICE, ...AS_BROWSERS_WRITE].map(
                ([, endpoint]) => endpoint,
              ),
            ),
            weight: 4,
          },
          fc.webUrl(),
        );
      case 'p256dh':
        return fc.constant(ctx.pushKey.p256dh);
      case 'auth':
        return fc.constant(ctx.pushKey.auth);
      case 'birthday':
        return fc.constantFrom(
          '1990-05-17',
          '2020-01-01',
          '1900-02-29',
          '2000-02-30',
          '0000-00-00',
        );
      case 'interests':
        return fc.constantFrom('Tech,Music', 'Tech', ',,,', 'Tech,'.repeat(50));
      case 'q':
        return fc.oneof(
          names.map((name) => name.slice(0, 3)),
          fc.constantFrom('%', '_', '\\'),
        );
      case 'folder':
      case 'caption':
        return fc.constantFrom('Trips', 'trips', ' Trips ', 'a/b', '..', '');
      case 'limit':
        return fc.constantFrom('1', '12', '13', '0', '-1', '1.5', '60', '200', '201', '2147483648');
      case 'remember':
        return fc.constantFrom('true', 'false', 'on');
      default:
        return undefined;
    }
  };
}

// ---------------------------------------------------------------------------------------------
// Parts of a request

function jsonSchemaOf(schema: unknown): JsonSchema | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  try {
    return z.toJSONSchema(schema as z.ZodType, {
      io: 'input',
      unrepresentable: 'any',
    }) as JsonSchema;
  } catch {
    return undefined;
  }
}

/** A query string: the values given, repeated keys for arrays, sometimes raw junk added. */
function queryText(value: unknown, junk: string | undefined): string {
  const pairs: string[] = [];
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue;
      for (const one of Array.isArray(item) ? item : [item]) {
        const text = typeof one === 'object' && one !== null ? JSON.stringify(one) : String(one);
        pairs.push(`${encodeLoose(key)}=${encodeLoose(text)}`);
      }
    }
  }
  if (junk !== undefined) pairs.push(junk);
  return pairs.join('&');
}

const RAW_QUERY_JUNK = [
  '%',
  '%zz',
  'a=%ff%fe',
  '&&&',
  '=',
  'a[b]=c',
  '__proto__[x]=1',
  'constructor=1',
  'q=%00',
  'username=%F0%9F',
  `x=${'a'.repeat(5_000)}`,
  'limit=1&limit=2',
];

const queryJunk = () =>
  fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 6 },
    { arbitrary: fc.constantFrom(...RAW_QUERY_JUNK), weight: 2 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 20 }).map(encodeLoose), weight: 1 },
  );

/** A path segment: encoded as a browser would, or raw, or one of the segments that break routers. */
function pathSegment(value: string): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.constant(encodeLoose(value)), weight: 12 },
    { arbitrary: fc.constant(value), weight: 1 },
    {
      arbitrary: fc.constantFrom(
        '..',
        '..%2f..%2fetc%2fpasswd',
        '%2e%2e',
        '%00',
        '%2500',
        '%251b',
        '%25ED%25A0%2580',
        '%ff',
        '%',
        '%u0041',
        'a%2fb',
        '.',
        ' ',
        'x'.repeat(5_000),
      ),
      weight: 2,
    },
  );
}

/** Body content that is not the JSON the route wants: broken, too large, or of another type. */
function junkBody(): fc.Arbitrary<{ payload?: unknown; contentType?: string }> {
  return fc.oneof(
    fc.constantFrom(
      { payload: '{"identifier": "a",', contentType: 'application/json' },
      { payload: '{', contentType: 'application/json' },
      { payload: '', contentType: 'application/json' },
      { payload: 'null', contentType: 'application/json' },
      { payload: '"text"', contentType: 'application/json' },
      { payload: '[1,2,3]', contentType: 'application/json' },
      { payload: '{"__proto__": {"polluted": true}}', contentType: 'application/json' },
      { payload: '{"constructor": {"prototype": {"x": 1}}}', contentType: 'application/json' },
      { payload: '{"a":1}', contentType: 'application/json; charset=utf-16' },
      { payload: '{"a":1}', contentType: 'application/json; charset=latin1' },
      { payload: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' },
      { payload: 'hello', contentType: 'text/plain' },
      { payload: '<x/>', contentType: 'application/xml' },
      { payload: '{"a":1}', contentType: 'multipart/form-data' },
      { payload: '{"a":1}', contentType: 'multipart/form-data; boundary=x' },
      { payload: '{"a":1}', contentType: ';;;' },
      { payload: '{"a":1}', contentType: 'application/json; boundary=' },
      { payload: `{"a":"${'x'.repeat(300 * 1024)}"}`, contentType: 'application/json' },
    ),
    fc
      .tuple(
        fc.uint8Array({ maxLength: 64 }),
        fc.constantFrom('application/json', 'application/octet-stream', ''),
      )
      .map(([bytes, contentType]) => ({
        payload: Buffer.from(bytes),
        ...(contentType ? { contentType } : {}),
      })),
    deepNesting().map((value) => ({
      payload: JSON.stringify(value),
      contentType: 'application/json',
    })),
    anyJson().map((value) => ({
      payload: JSON.stringify(value) ?? 'null',
      contentType: 'application/json',
    })),
  );
}

/** The generator built from the route's own contracts. */
function derivedGenerator(route: FuzzRoute): RouteGenerator {
  const body = jsonSchemaOf(route.schema.body);
  const query = jsonSchemaOf(route.schema.querystring);
  const params = jsonSchemaOf(route.schema.params);
  const paramNames = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1] as string);
  return (ctx) => {
    const hints = hintsFor(ctx);
    const paramValues = fc.record(
      Object.fromEntries(
        paramNames.map((name) => [
          name,
          fc.oneof(
            hints(name) ?? fc.string({ minLength: 1, maxLength: 20 }),
            anyString(params?.properties?.[name]?.maxLength ?? 100, hints(name)),
          ),
        ]),
      ),
    ) as fc.Arbitrary<Record<string, string>>;
    const path = paramValues.chain((values) =>
      fc.tuple(...paramNames.map((name) => pathSegment(values[name] ?? ''))).map((segments) => {
        let at = 0;
        return {
          path: route.url.replace(/:(\w+)/g, () => segments[at++] ?? ''),
          params: values,
        };
      }),
    );
    const queryValue = query
      ? fc.oneof(fittingValueFor(query, hints), valueFor(query, hints))
      : fc.constant(undefined);
    const bodyValue: fc.Arbitrary<{ payload?: unknown; contentType?: string }> = body
      ? fc.oneof(
          { arbitrary: fittingValueFor(body, hints).map((payload) => ({ payload })), weight: 4 },
          { arbitrary: valueFor(body, hints).map((payload) => ({ payload })), weight: 4 },
          { arbitrary: junkBody(), weight: 1 },
          { arbitrary: fc.constant({}), weight: 1 },
        )
      : fc.oneof({ arbitrary: fc.constant({}), weight: 6 }, { arbitrary: junkBody(), weight: 1 });
    return fc
      .record({ path, query: queryValue, junk: queryJunk(), body: bodyValue })
      .map(({ path, query, junk, body }) => ({
        path: path.path,
        params: path.params,
        query: queryText(query, junk),
        ...body,
      }));
  };
}

// ---------------------------------------------------------------------------------------------
// Hand-written generators

const SIGNUP_FORM: FormSpec = {
  fields: [
    'username',
    'email',
    'password',
    'firstName',
    'lastName',
    'birthday',
    'referral',
    'interests',
    'securityQuestion',
    'securityAnswer',
    'favoriteQuote',
    'remember',
  ],
  file: 'profilePic',
  good: {
    username: fc.stringMatching(/^f[a-z0-9]{8,18}$/),
    email: fc.stringMatching(/^f[a-z0-9]{8,30}$/).map((name) => `${name}@example.test`),
    password: fc.constant('Orbit#Pass1'),
    birthday: fc.constant('1990-05-17'),
    referral: fc.constant(''),
    interests: fc.constant('Tech,Music'),
    firstName: fc.string({ minLength: 1, maxLength: 30 }),
    lastName: fc.string({ minLength: 1, maxLength: 30 }),
  },
};

const UPLOAD_FORM: FormSpec = {
  fields: ['accountId', 'userId', 'username', 'folder', 'caption'],
  file: 'image',
};

const PROFILE_FORM: FormSpec = {
  fields: [
    'firstName',
    'lastName',
    'username',
    'email',
    'referral',
    'favoriteQuote',
    'securityQuestion',
    'securityAnswer',
    'interests',
    'theme',
  ],
  file: 'profilePic',
};

function formGenerator(path: string, spec: FormSpec, orJson?: RouteGenerator): RouteGenerator {
  return (ctx) => {
    const form = formBody(spec, ctx.pictures, hintsFor(ctx)).map(
      ({ payload, contentType }: RawBody): RouteRequest => ({
        path,
        payload,
        ...(contentType ? { contentType } : {}),
      }),
    );
    return orJson ? fc.oneof(form, orJson(ctx)) : form;
  };
}

/** Paths under /uploads/: real keys, keys of nothing, and ways out of the folder. */
const uploadsGenerator: RouteGenerator = (ctx) =>
  fc
    .oneof(
      {
        arbitrary: ctx.mediaKeys.length ? fc.constantFrom(...ctx.mediaKeys) : fc.constant('x'),
        weight: 4,
      },
      {
        arbitrary: fc.constantFrom(
          '../orbit.db',
          '..%2forbit.db',
          '%2e%2e/%2e%2e/etc/passwd',
          '.incoming/x.upload',
          'orbit.db',
          '',
          '/',
          '//',
          'a/b/c.webp',
          '%00.webp',
          '%ff',
          'x'.repeat(3_000),
        ),
        weight: 3,
      },
      { arbitrary: anyString(60).map(encodeLoose), weight: 2 },
    )
    .chain((key) =>
      fc.record({
        path: fc.constant(`/uploads/${key}`),
        headers: fc.oneof(
          fc.constant({}),
          fc
            .constantFrom('*', '"abc"', 'W/"x"', '"a", "b"', '')
            .map((tag) => ({ 'if-none-match': tag })),
        ),
      }),
    );

/**
 * Paths into the build's folder (fuzz/app.ts writes it): its files, what it keeps unpublished
 * (source maps, .vite/), ways out of the folder, and app routes that fall through to the document.
 */
const buildFilesGenerator: RouteGenerator = () =>
  fc.record({
    path: fc.oneof(
      fc.constantFrom(
        '/index.html',
        '/assets/app-abc123.js',
        '/assets/app-abc123.js.map',
        '/.vite/manifest.json',
        '/assets/',
        '/assets/..%2findex.html',
        '/%2e%2e/%2e%2e/etc/passwd',
        '/assets/%00.js',
        '/profile/a.b',
        '/x',
      ),
      anyString(60).map((p) => `/${encodeLoose(p)}`),
    ),
    headers: fc.constantFrom({}, { accept: 'text/html' }, { 'if-none-match': '*' }),
  });

/** Preflights for any path, from any origin, asking for any method and headers. */
const preflightGenerator: RouteGenerator = () =>
  fc.record({
    path: fc.oneof(
      fc.constantFrom('/api/auth/login', '/api/gallery', '/x', '/'),
      anyString(40).map((p) => `/${encodeLoose(p)}`),
    ),
    headers: fc.record({
      origin: fc.constantFrom('http://localhost:5000', 'https://evil.test', 'null', '', '\u00ff'),
      'access-control-request-method': fc.constantFrom('GET', 'POST', 'DELETE', 'PROPFIND', ''),
      'access-control-request-headers': fc.constantFrom(
        'content-type',
        'x-evil',
        '',
        ','.repeat(50),
      ),
    }),
  });

/** The metrics, with their token or without. */
const metricsGenerator: RouteGenerator = (ctx) =>
  fc.record({
    path: fc.constant('/metrics'),
    query: fc.constantFrom('', 'name[]=x', '%'),
    headers: fc.oneof(
      fc.constant({ authorization: `Bearer ${ctx.metricsToken}` }),
      fc
        .constantFrom('', 'Bearer', `Bearer ${ctx.metricsToken}x`, `Basic ${ctx.metricsToken}`)
        .map((authorization) => ({ authorization })),
    ),
  });

/**
 * Deleting one's account: the contract's cases, and confirmations that name a real member (in any
 * case, with spaces) with a real password, so that some cases delete the member who sends them.
 */
function deleteAccountGenerator(route: FuzzRoute): RouteGenerator {
  const derived = derivedGenerator(route);
  return (ctx) => {
    const names = Object.values(ctx.members).map((member) => member.username);
    const typed = fc
      .constantFrom(...names)
      .chain((name) => fc.constantFrom(name, name.toUpperCase(), ` ${name} `, `${name}x`));
    const confirmation = fc
      .record({ username: typed, password: fc.constantFrom(...PASSWORDS, 'Wrong#Pass1', '') })
      .map((payload): RouteRequest => ({ path: '/api/auth/account', payload }));
    return fc.oneof(confirmation, derived(ctx));
  };
}

/**
 * A route's derived requests naming only the fuzzed members: the witness is never blocked, so it
 * keeps seeing the owner's gallery and making friend calls (witnessStillServed).
 */
const withoutWitness =
  (route: FuzzRoute): RouteGenerator =>
  (ctx) =>
    derivedGenerator(route)({ ...ctx, members: { ...ctx.members, witness: ctx.members.other } });

/** Routes whose requests no contract describes, or that must leave the witness alone. */
const HAND_WRITTEN: Record<string, (route: FuzzRoute) => RouteGenerator> = {
  'POST /api/users/blocks': withoutWitness,
  'DELETE /api/users/blocks/:userId': withoutWitness,
  'POST /api/auth/signup': () => formGenerator('/api/auth/signup', SIGNUP_FORM),
  'POST /api/gallery': () => formGenerator('/api/gallery', UPLOAD_FORM),
  // JSON by its contract, or a form with a new picture.
  'PATCH /api/auth/profile': (route) =>
    formGenerator('/api/auth/profile', PROFILE_FORM, derivedGenerator(route)),
  // Derivable, but the derived cases would seldom name the sender.
  'DELETE /api/auth/account': deleteAccountGenerator,
  'GET /uploads/*': () => uploadsGenerator,
  'HEAD /uploads/*': () => uploadsGenerator,
  'GET /*': () => buildFilesGenerator,
  'HEAD /*': () => buildFilesGenerator,
  'OPTIONS *': () => preflightGenerator,
  // Not a member route: its own bearer token, which the derived generator cannot know.
  'GET /metrics': () => metricsGenerator,
  'HEAD /metrics': () => metricsGenerator,
};

/** Whether a route's request cannot be derived from its contracts. */
function needsHandWritten(route: FuzzRoute): string | null {
  if (route.schema.consumes?.some((type) => type.startsWith('multipart/')))
    return 'it takes multipart/form-data';
  if (route.url.includes('*')) return 'its path has a wildcard';
  return null;
}

export function generatorFor(route: FuzzRoute): RouteGenerator | undefined {
  const hand = HAND_WRITTEN[routeKey(route)];
  if (hand) return hand(route);
  return needsHandWritten(route) ? undefined : derivedGenerator(route);
}

/** Routes without a generator, each with the reason it needs a hand-written one. */
export function missingGenerators(routes: readonly FuzzRoute[]): string[] {
  return routes
    .filter((route) => !generatorFor(route))
    .map((route) => `${routeKey(route)}: ${needsHandWritten(route) ?? 'no generator'}`);
}
