/**
 * Which push endpoints a device may subscribe with (docs/decisions.md "Push through a relay"):
 * https: on port 443 at the browsers' push services, the hosts of PUSH_ALLOWED_HOSTS, and this
 * machine only with the tests' PUSH_ALLOW_LOCAL_SERVICE; and how often a member may change them.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import {
  type Member,
  type TestDialect,
  asCookie,
  forEachDialect,
  newDevice,
  postPushSubscription,
  pushRowsOf,
  signupUser,
  useTestApp,
} from './helpers.ts';
import {
  AS_BROWSERS_WRITE,
  NOT_AS_BROWSERS_WRITE,
  NOT_A_PUSH_SERVICE,
  RELAY_SECRET,
} from './push-endpoints.ts';
import { describeTwoNodes } from './live-app.ts';

const UNSUPPORTED = { error: 'This push service isn’t supported.' };
const NOT_AS_WRITTEN = { error: 'Send the push endpoint exactly as the browser gave it.' };
const twoNodes = await describeTwoNodes(
  'the subscription limit across server nodes',
  'push-hosts',
  { RELAY_SECRET },
);

/** A device whose endpoint is exactly `endpoint`. */
const deviceAt = (endpoint: string) => ({ ...newDevice(), endpoint });

const REFUSED: [string, string][] = [
  ['a loopback address', 'https://127.0.0.1:5399/x'],
  ['a loopback address on port 443', 'https://127.0.0.1/x'],
  ['localhost', 'https://localhost/x'],
  ['IPv6 loopback', 'https://[::1]/x'],
  ['a private address', 'https://10.1.2.3/x'],
  ['a 192.168 address', 'https://192.168.0.10/x'],
  ['the cloud metadata address', 'https://169.254.169.254/latest/meta-data/'],
  ['an IPv6 link-local address', 'https://[fe80::1]/x'],
  ['an IPv4-mapped private address', 'https://[::ffff:a00:1]/x'],
  ['a host that is no push service', 'https://attacker.example/x'],
  ['a push service host as a prefix', 'https://fcm.googleapis.com.attacker.example/x'],
  ['a push service host as a suffix', 'https://evilfcm.googleapis.com/x'],
  ['the bare Apple suffix', 'https://push.apple.com/x'],
  ['a push service on another port', 'https://fcm.googleapis.com:8443/fcm/send/x'],
  ['a push service with a user name', 'https://user:secret@fcm.googleapis.com/fcm/send/x'],
  ['a self-hosted service nobody allowed', 'https://push.example.org/x'],
  ...NOT_A_PUSH_SERVICE,
];

/** Test titles with `%s`, each run for its named endpoints. */
interface EndpointCases {
  title: string;
  endpoints: [string, string][];
}

/**
 * A member of an app with `env` subscribes a device at each endpoint: answered 201 for those
 * `accepted`, 400 for those `refused`.
 */
function itAnswersByEndpoint(
  dialect: TestDialect,
  env: Record<string, string>,
  accepted: EndpointCases,
  refused: EndpointCases,
) {
  const t = useTestApp(dialect, { RELAY_SECRET, ...env });
  let member: Member;
  beforeAll(async () => {
    member = await signupUser(t.app);
  });

  it.each(accepted.endpoints)(accepted.title, async (_, endpoint) => {
    const response = await postPushSubscription(t.app, member, deviceAt(endpoint));
    expect(response.statusCode).toBe(201);
  });

  it.each(refused.endpoints)(refused.title, async (_, endpoint) => {
    const response = await postPushSubscription(t.app, member, deviceAt(endpoint));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(UNSUPPORTED);
  });
}

forEachDialect((dialect) => {
  describe('push services a device may subscribe with', () => {
    const t = useTestApp(dialect, { RELAY_SECRET });
    let member: Member;
    beforeAll(async () => {
      member = await signupUser(t.app);
    });

    it.each(REFUSED)('answers 400 for %s and stores nothing', async (_, endpoint) => {
      const response = await postPushSubscription(t.app, member, deviceAt(endpoint));

      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(UNSUPPORTED);
      const rows = await t.app.db
        .selectFrom('push_subscriptions')
        .select('id')
        .where('endpoint', '=', endpoint)
        .execute();
      expect(rows).toEqual([]);
    });

    it.each(NOT_AS_BROWSERS_WRITE)(
      'answers 400 for %s and stores neither it nor its normalised form',
      async (_, endpoint) => {
        const owner = await signupUser(t.app);
        const response = await postPushSubscription(t.app, owner, deviceAt(endpoint));

        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual(NOT_AS_WRITTEN);
        expect(await pushRowsOf(t.app, owner.user.id)).toEqual([]);
      },
    );

    it.each(AS_BROWSERS_WRITE)('answers 201 for %s', async (_, endpoint) => {
      const owner = await signupUser(t.app);
      const response = await postPushSubscription(t.app, owner, deviceAt(endpoint));

      expect(response.statusCode).toBe(201);
      expect((await pushRowsOf(t.app, owner.user.id)).map((row) => row.endpoint)).toEqual([
        endpoint,
      ]);
    });
  });

  describe('PUSH_ALLOWED_HOSTS', () => {
    itAnswersByEndpoint(
      dialect,
      { PUSH_ALLOWED_HOSTS: ' push.example.org , *.selfhosted.example' },
      {
        title: 'adds to the push services: answers 201 for %s',
        endpoints: [
          ['an exact host', 'https://push.example.org/send/1'],
          ['a host under a *. suffix', 'https://eu.selfhosted.example/send/1'],
          ['a browser push service still', 'https://fcm.googleapis.com/fcm/send/2'],
        ],
      },
      {
        title: 'answers 400 for %s',
        endpoints: [
          ['a host under an exact one', 'https://eu.push.example.org/send/1'],
          ['the bare suffix', 'https://selfhosted.example/send/1'],
          ['an allowed host on another port', 'https://push.example.org:8443/send/1'],
          ['a loopback address', 'https://127.0.0.1:5399/x'],
        ],
      },
    );
  });

  describe('PUSH_ALLOW_LOCAL_SERVICE (tests only)', () => {
    itAnswersByEndpoint(
      dialect,
      { PUSH_ALLOW_LOCAL_SERVICE: 'true' },
      {
        title: 'lets a local push service through: answers 201 for %s',
        endpoints: [
          ['127.0.0.1 on any port', 'https://127.0.0.1:5399/push/1'],
          ['localhost', 'https://localhost:8443/push/1'],
          ['[::1]', 'https://[::1]:9000/push/1'],
        ],
      },
      {
        title: 'still answers 400 for %s',
        endpoints: [
          ['a private address', 'https://10.1.2.3/x'],
          ['the cloud metadata address', 'https://169.254.169.254/latest/meta-data/'],
          ['a host that is no push service', 'https://attacker.example/x'],
        ],
      },
    );
  });

  describe('how often a member may change their devices', () => {
    const t = useTestApp(dialect, { RELAY_SECRET });
    const fcmDevice = () =>
      deviceAt(`https://fcm.googleapis.com/fcm/send/${newDevice().keys.auth}`);
    const remove = (member: Member, endpoint: string) =>
      t.app.inject({
        method: 'DELETE',
        url: '/api/push/subscriptions',
        headers: asCookie(member),
        payload: { endpoint },
      });
    const TOO_MANY = /^Too many attempts\. Try again in \d+ seconds\.$/;

    it('takes 30 subscribes and unsubscribes an hour, then answers 429 with Retry-After', async () => {
      const member = await signupUser(t.app);
      for (let change = 0; change < 15; change += 1) {
        const device = fcmDevice();
        expect((await postPushSubscription(t.app, member, device)).statusCode).toBe(201);
        expect((await remove(member, device.endpoint)).statusCode).toBe(204);
      }

      const refused = await postPushSubscription(t.app, member, fcmDevice());
      const removal = await remove(member, 'https://fcm.googleapis.com/fcm/send/x');

      for (const response of [refused, removal]) {
        expect(response.statusCode).toBe(429);
        expect(response.json<{ error: string }>().error).toMatch(TOO_MANY);
        const retryAfter = Number(response.headers['retry-after']);
        expect(retryAfter).toBeGreaterThan(3500);
        expect(retryAfter).toBeLessThanOrEqual(3600);
      }
      expect(await pushRowsOf(t.app, member.user.id)).toEqual([]);
    });

    it('counts refused endpoints too, and each member apart', async () => {
      const [member, other] = [await signupUser(t.app), await signupUser(t.app)];
      for (let change = 0; change < 30; change += 1) {
        const response = await postPushSubscription(t.app, member, deviceAt('https://10.0.0.1/x'));
        expect(response.statusCode).toBe(400);
      }

      expect((await postPushSubscription(t.app, member, fcmDevice())).statusCode).toBe(429);
      expect((await postPushSubscription(t.app, other, fcmDevice())).statusCode).toBe(201);
    });
  });
});

twoNodes('the subscription limit on two server nodes sharing Redis', ({ t, nodes }) => {
  it('counts a member’s changes on every node together', async () => {
    const member = await signupUser(t.app);
    const device = () => deviceAt(`https://fcm.googleapis.com/fcm/send/${randomUUID()}`);
    for (let change = 0; change < 15; change += 1) {
      expect((await postPushSubscription(t.app, member, device())).statusCode).toBe(201);
      expect((await postPushSubscription(nodes.second, member, device())).statusCode).toBe(201);
    }

    for (const node of [t.app, nodes.second]) {
      const response = await postPushSubscription(node, member, device());
      expect(response.statusCode).toBe(429);
      expect(response.headers['retry-after']).toBeDefined();
    }
  });
});

describe('PUSH_ALLOWED_HOSTS in the configuration', () => {
  it('is empty by default, and local push services are off', () => {
    expect(loadConfig({}).pushEndpoints).toEqual({ extraHosts: [], allowLocal: false });
  });

  it('reads comma-separated hosts and *. suffixes, lower-cased', () => {
    expect(
      loadConfig({ PUSH_ALLOWED_HOSTS: 'Push.Example.org, *.selfhosted.example,' }).pushEndpoints
        .extraHosts,
    ).toEqual(['push.example.org', '*.selfhosted.example']);
  });

  it.each(['https://push.example.org', 'push.example.org:443', '*', '*.', 'a..b', 'push example'])(
    'stops the server at start for %j',
    (value) => {
      expect(() => loadConfig({ PUSH_ALLOWED_HOSTS: value })).toThrow(/PUSH_ALLOWED_HOSTS/);
    },
  );
});
