/**
 * Every call whose attempts or uploads Redis counts (docs/decisions.md "Rate limits fail closed
 * when Redis is down"): while Redis holds its connections silent (SIGSTOP) and while it is down,
 * each answers 503 `Try again in a moment.` within a second, and an upload refused so leaves no
 * file, no picture and no row. Once Redis is back they go through again. Redis is a private
 * `redis-server` this file starts, freezes, kills and starts again.
 */
import path from 'node:path';
import { beforeAll, expect, it, vi } from 'vitest';
import { galleryState, jpegPart, postUpload } from './gallery-helpers.ts';
import {
  type FilePart,
  type Member,
  asBearer,
  filesUnder,
  newDevice,
  patchProfileForm,
  postPushSubscription,
  signupMembers,
} from './helpers.ts';
import {
  type Calls,
  countedAuthCalls,
  expectEachRefusedFast,
  privateRedisSuites,
  usePrivateRedisApp,
} from './private-services.ts';
import { postReport } from './safety-helpers.ts';
import { RELAY_SECRET } from './push-endpoints.ts';

const CANNOT_COUNT = { error: 'Try again in a moment.' };

const suite = privateRedisSuites('The Redis count test');

suite('every call Redis counts, with Redis hung and then down', (dialect) => {
  const t = usePrivateRedisApp(dialect, {
    RELAY_SECRET,
    PUSH_ALLOWED_HOSTS: 'push.example.test',
  });
  let member: Member;
  let other: Member;
  let photo: FilePart;

  beforeAll(async () => {
    [member, other] = await signupMembers(t.app, 2);
    photo = await jpegPart();
  });

  const calls = (): Calls => ({
    'gallery upload': () => postUpload(t.app, member, photo),
    'profile picture': () => patchProfileForm(t.app, member, { profilePic: photo }),
    ...countedAuthCalls(t.app, member),
    'username check': () =>
      t.app.inject({ method: 'GET', url: '/api/check-username?username=free_name' }),
    'own username check': () =>
      t.app.inject({
        method: 'GET',
        url: '/api/auth/check-username?username=free_name',
        headers: asBearer(member),
      }),
    report: () =>
      postReport(t.app, member, { kind: 'member', targetId: other.user.id, reason: 'spam' }),
    'push subscription': () => postPushSubscription(t.app, member, newDevice()),
  });

  /** What an upload or a counted call could have left behind. */
  const state = async () => ({
    ...(await galleryState(t.app, t.config.uploadsDir)),
    avatars: await filesUnder(path.join(t.config.uploadsDir, 'avatars')),
    reports: (await t.app.db.selectFrom('reports').select('id').execute()).length,
    devices: (await t.app.db.selectFrom('push_subscriptions').select('id').execute()).length,
    members: (await t.app.db.selectFrom('users').select('id').execute()).length,
  });

  async function expectEveryCallRefused() {
    const before = await state();
    await expectEachRefusedFast(calls(), CANNOT_COUNT);
    expect(await state()).toEqual(before);
    expect(before.incoming).toEqual([]);
  }

  /** An upload goes through again once Redis answers (ioredis reconnects by itself). */
  async function expectUploadsAgain() {
    await vi.waitFor(
      async () => expect((await postUpload(t.app, member, photo)).statusCode).toBe(201),
      {
        timeout: 15_000,
        interval: 100,
      },
    );
  }

  it('answers 503 within a second while Redis holds its connections silent', async () => {
    t.redis.freeze(true);
    try {
      await expectEveryCallRefused();
    } finally {
      t.redis.freeze(false);
    }
    await expectUploadsAgain();
  });

  it('answers 503 at once while Redis is down', async () => {
    await t.redis.kill();
    await expectEveryCallRefused();
    await t.redis.start();
    await expectUploadsAgain();
  });
});
