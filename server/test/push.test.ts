/**
 * Push subscriptions and the VAPID key (issue 8): who may register and remove a device, what a
 * subscription must look like, and devices leaving with the session that registered them.
 */
import type { AddressInfo } from 'node:net';
import { io } from 'socket.io-client';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type Member,
  ORIGIN,
  SECURITY_ANSWER,
  asBearer,
  asCookie,
  forEachDialect,
  loginAs,
  newDevice,
  p256PublicKey,
  postPushSubscription,
  pushRowsOf,
  sessionsOf,
  sha256,
  signupUser,
  subscribeDevice,
  useTestApp,
  signupPair,
  postLogout,
  postReset,
} from './helpers.ts';
import { RELAY_SECRET } from './push-endpoints.ts';

const UNAVAILABLE = { error: 'Push notifications are not available right now.' };

forEachDialect((dialect) => {
  describe('GET /api/push/vapid-public-key', () => {
    const t = useTestApp(dialect, { RELAY_SECRET });
    const getKey = (headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url: '/api/push/vapid-public-key', headers });

    /** Connects a relay bringing `key` and disconnects it once the server has accepted it. */
    const relayBrings = async (key: string) => {
      if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as AddressInfo;
      const socket = io(`http://127.0.0.1:${port}/relay`, {
        transports: ['websocket'],
        reconnection: false,
        auth: { secret: RELAY_SECRET, vapidPublicKey: key },
      });
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      socket.disconnect();
    };

    it('answers 503 while no relay has ever connected', async () => {
      const response = await getKey();
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual(UNAVAILABLE);
    });

    it('answers the key of the relay once one has connected, to anyone, and keeps it after it leaves', async () => {
      const key = p256PublicKey();
      await relayBrings(key);

      const response = await getKey();

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ publicKey: key });
      expect(response.headers['cache-control']).toBe('no-store');
    });

    it('answers the newest key when a relay comes back with another one', async () => {
      await relayBrings(p256PublicKey());
      const key = p256PublicKey();
      await relayBrings(key);

      expect((await getKey()).json()).toEqual({ publicKey: key });
    });
  });

  describe('GET /api/push/vapid-public-key without RELAY_SECRET', () => {
    const t = useTestApp(dialect);

    it('answers 503 even when an earlier run stored a key', async () => {
      await t.app.db
        .insertInto('server_settings')
        .values({ key: 'push.vapid_public_key', value: p256PublicKey(), updated_at: '' })
        .execute();

      const response = await t.app.inject({ method: 'GET', url: '/api/push/vapid-public-key' });

      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual(UNAVAILABLE);
    });
  });

  describe('subscriptions', () => {
    // The devices of these tests live at a self-hosted push service the operator allowed.
    const t = useTestApp(dialect, {
      RELAY_SECRET,
      PUSH_ALLOWED_HOSTS: 'push.example.test',
    });
    let a: Member;
    let b: Member;
    beforeAll(async () => {
      [a, b] = await signupPair(t.app);
    });
    const remove = (member: Member | null, body: unknown) =>
      t.app.inject({
        method: 'DELETE',
        url: '/api/push/subscriptions',
        headers: member ? asCookie(member) : { origin: ORIGIN },
        payload: body as Record<string, unknown>,
      });
    const endpointsOf = async (member: Member) =>
      (await pushRowsOf(t.app, member.user.id)).map((row) => row.endpoint);

    describe('POST /api/push/subscriptions', () => {
      it('answers 401 without a session and stores nothing', async () => {
        const device = newDevice();
        const response = await t.app.inject({
          method: 'POST',
          url: '/api/push/subscriptions',
          headers: { origin: ORIGIN },
          payload: device,
        });

        expect(response.statusCode).toBe(401);
        const rows = await t.app.db
          .selectFrom('push_subscriptions')
          .select('id')
          .where('endpoint', '=', device.endpoint)
          .execute();
        expect(rows).toEqual([]);
      });

      it('answers 201 for a new device and stores it with the member and the session', async () => {
        const member = await signupUser(t.app);
        const device = newDevice();

        const response = await postPushSubscription(t.app, member, device);

        expect(response.statusCode).toBe(201);
        expect(response.json()).toEqual({ ok: true });
        const [row] = await pushRowsOf(t.app, member.user.id);
        expect(row).toMatchObject({
          user_id: member.user.id,
          session_id: sha256(member.token),
          endpoint: device.endpoint,
          p256dh: device.keys.p256dh,
          auth: device.keys.auth,
        });
      });

      it('takes a bearer token and the extra fields PushSubscription.toJSON() gives', async () => {
        const member = await signupUser(t.app);
        const response = await t.app.inject({
          method: 'POST',
          url: '/api/push/subscriptions',
          headers: asBearer(member),
          payload: { ...newDevice(), expirationTime: null },
        });
        expect(response.statusCode).toBe(201);
      });

      it('keeps several devices of one member', async () => {
        const member = await signupUser(t.app);
        const phone = await subscribeDevice(t.app, member);
        const laptop = await subscribeDevice(t.app, member);

        expect(await endpointsOf(member)).toEqual([phone.endpoint, laptop.endpoint]);
      });

      it('answers 200 for a device already stored, with its new keys', async () => {
        const member = await signupUser(t.app);
        const device = await subscribeDevice(t.app, member);
        const renewed = { ...device, keys: newDevice().keys };

        const response = await postPushSubscription(t.app, member, renewed);

        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual({ ok: true });
        const rows = await pushRowsOf(t.app, member.user.id);
        expect(rows.map((row) => [row.endpoint, row.p256dh, row.auth])).toEqual([
          [device.endpoint, renewed.keys.p256dh, renewed.keys.auth],
        ]);
      });

      it('moves an endpoint to the newest member who registers it', async () => {
        const [first, second] = await signupPair(t.app);
        const device = await subscribeDevice(t.app, first);

        const response = await postPushSubscription(t.app, second, device);

        expect(response.statusCode).toBe(200);
        expect(await endpointsOf(first)).toEqual([]);
        const [row] = await pushRowsOf(t.app, second.user.id);
        expect(row).toMatchObject({ endpoint: device.endpoint, session_id: sha256(second.token) });
      });

      it('moves an endpoint to the newest session of the same member', async () => {
        const member = await signupUser(t.app);
        const device = await subscribeDevice(t.app, member);
        const later = await loginAs(t.app, member);

        await subscribeDevice(t.app, later, device);

        const [row] = await pushRowsOf(t.app, member.user.id);
        expect(row?.session_id).toBe(sha256(later.token));
      });

      it('keeps the 20 most recently registered devices of a member', async () => {
        const member = await signupUser(t.app);
        const devices = [];
        for (let index = 0; index < 21; index += 1)
          devices.push(await subscribeDevice(t.app, member));

        expect(await endpointsOf(member)).toEqual(devices.slice(1).map((d) => d.endpoint));
      });

      it('refuses an http: endpoint, on this machine too', async () => {
        for (const host of ['localhost:8443', '127.0.0.1:9000', '[::1]:9000']) {
          const response = await postPushSubscription(t.app, a, newDevice(`http://${host}`));
          expect(response.statusCode).toBe(400);
          expect(response.json()).toEqual({
            error: 'The push endpoint must be an https: address.',
          });
        }
      });

      const valid = newDevice();
      const longEndpoint = `https://push.example.test/${'x'.repeat(2048)}`;
      const offCurve = Buffer.alloc(65, 7);
      offCurve[0] = 4;
      it.each([
        ['no body', undefined, 'endpoint must be a string.'],
        ['no endpoint', { keys: valid.keys }, 'endpoint must be a string.'],
        ['an empty endpoint', { ...valid, endpoint: '' }, 'Send the subscription’s endpoint.'],
        [
          'an endpoint that is not a URL',
          { ...valid, endpoint: 'push service' },
          'The push endpoint must be an https: address.',
        ],
        [
          'an http: endpoint elsewhere',
          { ...valid, endpoint: 'http://push.example.test/send/1' },
          'The push endpoint must be an https: address.',
        ],
        [
          'another scheme',
          { ...valid, endpoint: 'ftp://push.example.test/1' },
          'The push endpoint must be an https: address.',
        ],
        [
          'an endpoint over 2,048 characters',
          { ...valid, endpoint: longEndpoint },
          'The push endpoint is too long (at most 2,048 characters).',
        ],
        ['no keys', { endpoint: valid.endpoint }, 'keys must be an object.'],
        [
          'a p256dh of the wrong length',
          { ...valid, keys: { ...valid.keys, p256dh: Buffer.alloc(33, 4).toString('base64url') } },
          'The subscription’s p256dh key must be a P-256 public key (65 bytes, base64url).',
        ],
        [
          'a p256dh off the curve',
          { ...valid, keys: { ...valid.keys, p256dh: offCurve.toString('base64url') } },
          'The subscription’s p256dh key must be a P-256 public key (65 bytes, base64url).',
        ],
        [
          'a p256dh in plain base64',
          { ...valid, keys: { ...valid.keys, p256dh: '+/+/' } },
          'The subscription’s p256dh key must be a P-256 public key (65 bytes, base64url).',
        ],
        [
          'an auth secret of 15 bytes',
          { ...valid, keys: { ...valid.keys, auth: Buffer.alloc(15).toString('base64url') } },
          'The subscription’s auth secret must be 16 bytes, base64url.',
        ],
        [
          'an auth secret that is not base64url',
          { ...valid, keys: { ...valid.keys, auth: 'not base64!' } },
          'The subscription’s auth secret must be 16 bytes, base64url.',
        ],
      ])('answers 400 for %s', async (_, body, message) => {
        const response = await postPushSubscription(t.app, a, body);

        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ error: message });
      });
    });

    describe('DELETE /api/push/subscriptions', () => {
      it.each([
        { title: 'answers 401 without a session and deletes nothing', asOther: false, status: 401 },
        {
          title: 'answers 204 and changes nothing for another member’s endpoint',
          asOther: true,
          status: 204,
        },
      ])('$title', async ({ asOther, status }) => {
        const device = await subscribeDevice(t.app, a);

        const response = await remove(asOther ? b : null, { endpoint: device.endpoint });

        expect(response.statusCode).toBe(status);
        expect(await endpointsOf(a)).toContain(device.endpoint);
      });

      it('deletes one of the member’s own devices and keeps the others', async () => {
        const member = await signupUser(t.app);
        const gone = await subscribeDevice(t.app, member);
        const kept = await subscribeDevice(t.app, member);

        const response = await remove(member, { endpoint: gone.endpoint });

        expect(response.statusCode).toBe(204);
        expect(response.body).toBe('');
        expect(await endpointsOf(member)).toEqual([kept.endpoint]);
      });

      it('answers 204 for an endpoint it never knew', async () => {
        expect((await remove(a, { endpoint: newDevice().endpoint })).statusCode).toBe(204);
      });

      it.each([
        ['no body', undefined, 'endpoint must be a string.'],
        ['an empty endpoint', { endpoint: '' }, 'Send the subscription’s endpoint.'],
        [
          'an endpoint over 2,048 characters',
          { endpoint: `https://p.test/${'x'.repeat(2048)}` },
          'The push endpoint is too long (at most 2,048 characters).',
        ],
      ])('answers 400 for %s', async (_, body, message) => {
        const response = await remove(a, body);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ error: message });
      });
    });

    describe('devices leave with their session', () => {
      it('logout deletes the devices that session registered, and only those', async () => {
        const member = await signupUser(t.app);
        const other = await loginAs(t.app, member);
        const phone = await subscribeDevice(t.app, member);
        const laptop = await subscribeDevice(t.app, other);

        const response = await postLogout(t.app, asCookie(member));

        expect(response.statusCode).toBe(200);
        expect(await endpointsOf(member)).toEqual([laptop.endpoint]);
        expect(await endpointsOf(member)).not.toContain(phone.endpoint);
      });

      it('a password change deletes the devices of the other sessions and keeps this one’s', async () => {
        const member = await signupUser(t.app);
        const other = await loginAs(t.app, member);
        const kept = await subscribeDevice(t.app, member);
        await subscribeDevice(t.app, other);

        const response = await t.app.inject({
          method: 'PATCH',
          url: '/api/auth/password',
          headers: asCookie(member),
          payload: { currentPassword: member.password, newPassword: 'Comet#Tail42' },
        });

        expect(response.statusCode).toBe(200);
        expect(await endpointsOf(member)).toEqual([kept.endpoint]);
      });

      it('a password reset deletes every device of the member, and no one else’s', async () => {
        const [member, bystander] = await Promise.all([signupUser(t.app), signupUser(t.app)]);
        await subscribeDevice(t.app, member);
        await subscribeDevice(t.app, await loginAs(t.app, member));
        const theirs = await subscribeDevice(t.app, bystander);

        const response = await postReset(
          t.app,
          { origin: ORIGIN },
          {
            identifier: member.username,
            answer: SECURITY_ANSWER,
            newPassword: 'Comet#Tail42',
          },
        );

        expect(response.statusCode).toBe(200);
        expect(await sessionsOf(t.app, member.user.id)).toEqual([]);
        expect(await endpointsOf(member)).toEqual([]);
        expect(await endpointsOf(bystander)).toEqual([theirs.endpoint]);
      });
    });
  });
});
