/**
 * Each member's uploads (docs/product.md "Uploads"; docs/decisions.md "Uploads are checked and
 * cleaned"): three at once, UPLOADS_PER_HOUR an hour, gallery photos and profile pictures alike,
 * signups by client address; counted in Redis across nodes when REDIS_URL is set.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { postUpload } from './gallery-helpers.ts';
import {
  type FilePart,
  type Member,
  ORIGIN,
  PASSWORD,
  REDIS_TEST_URL,
  asCookie,
  describeWithRedis,
  forEachApp,
  multipart,
  signupMembers,
  signupUser,
  uniqueUsername,
  patchProfile,
} from './helpers.ts';
import {
  type HeldUpload,
  holdGalleryUpload,
  holdSignup,
  incomingFiles,
  noisyPhoto,
} from './uploads-helpers.ts';

const AT_ONCE = 'You’re uploading too much at once. Wait for the others to finish.';
const perHour = (limit: number) =>
  new RegExp(
    `^You’ve uploaded ${limit} pictures in the last hour\\. Try again in \\d+ minutes\\.$`,
  );

function signupForm(picture: FilePart): Record<string, string | FilePart> {
  const username = uniqueUsername('s');
  return {
    username,
    email: `${username}@example.test`,
    password: PASSWORD,
    birthday: '1990-05-17',
    profilePic: picture,
  };
}

/** Waits until the server is reading `count` bodies (their temporary files exist). */
async function receiving(uploadsDir: string, count: number): Promise<void> {
  await vi.waitFor(async () => expect(await incomingFiles(uploadsDir)).toHaveLength(count), {
    timeout: 10_000,
  });
}

async function finishAll(held: HeldUpload[]): Promise<number[]> {
  return (await Promise.all(held.map((upload) => upload.finish()))).map((r) => r.statusCode);
}

forEachApp(
  (t) => {
    let file: FilePart;
    let members: Member[];

    beforeAll(async () => {
      file = await noisyPhoto();
      // One after the other: signups from one address count as its uploads.
      members = [];
      for (let index = 0; index < 4; index += 1) members.push(await signupUser(t.app));
    });

    it('refuses a fourth upload at once with 429 and Retry-After; another member still uploads', async () => {
      const [me, other] = members as [Member, Member];
      const held = [
        await holdGalleryUpload(t.app, me, file),
        await holdGalleryUpload(t.app, me, file),
        await holdGalleryUpload(t.app, me, file),
      ];
      await receiving(t.config.uploadsDir, 3);

      const fourth = await postUpload(t.app, me, file);
      expect(fourth.statusCode).toBe(429);
      expect(fourth.json()).toEqual({ error: AT_ONCE });
      expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
      // A profile picture is an upload too.
      const { payload, headers } = await multipart({ profilePic: file });
      const avatar = await patchProfile(t.app, { ...headers, ...asCookie(me) }, payload);
      expect(avatar.statusCode).toBe(429);
      expect(avatar.json()).toEqual({ error: AT_ONCE });

      const theirs = await postUpload(t.app, other, file);
      expect(theirs.statusCode).toBe(201);

      expect(await finishAll(held)).toEqual([201, 201, 201]);
      // Each finished upload gave its place back.
      expect((await postUpload(t.app, me, file)).statusCode).toBe(201);
    });

    it('refuses uploads past UPLOADS_PER_HOUR with 429 and a Retry-After within the hour', async () => {
      const me = members[2] as Member;
      for (let index = 0; index < 5; index += 1)
        expect((await postUpload(t.app, me, file)).statusCode).toBe(201);

      const over = await postUpload(t.app, me, file);
      expect(over.statusCode).toBe(429);
      expect(over.json<{ error: string }>().error).toMatch(perHour(5));
      const retryAfter = Number(over.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(3_500);
      expect(retryAfter).toBeLessThanOrEqual(3_600);

      expect((await postUpload(t.app, members[3] as Member, file)).statusCode).toBe(201);
    });

    it('counts signups by client address: a fourth at once is refused', async () => {
      const address = '203.0.113.7';
      const held = [
        await holdSignup(t.app, address, signupForm(file)),
        await holdSignup(t.app, address, signupForm(file)),
        await holdSignup(t.app, address, signupForm(file)),
      ];
      await receiving(t.config.uploadsDir, 3);
      const { payload, headers } = await multipart(signupForm(file));
      const refused = await t.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        payload,
        headers: { ...headers, origin: ORIGIN },
        remoteAddress: address,
      });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ error: AT_ONCE });
      expect(await finishAll(held)).toEqual([201, 201, 201]);
      // Another address signs up meanwhile.
      const elsewhere = await multipart(signupForm(file));
      const theirs = await t.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        payload: elsewhere.payload,
        headers: { ...elsewhere.headers, origin: ORIGIN },
        remoteAddress: '203.0.113.8',
      });
      expect(theirs.statusCode).toBe(201);
    });
  },
  { UPLOADS_AT_ONCE: '3', UPLOADS_PER_HOUR: '5' },
);

const withRedis = await describeWithRedis('upload limits shared through Redis');

withRedis('upload limits with REDIS_URL', () => {
  const prefix = `orbit-test-${randomBytes(4).toString('hex')}`;
  const nodes: Awaited<ReturnType<typeof buildApp>>[] = [];
  let uploadsDir = '';

  beforeAll(async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'orbit-uploads-redis-'));
    uploadsDir = path.join(dataDir, 'uploads');
    const url = new URL(REDIS_TEST_URL);
    url.pathname = '/14';
    // Two nodes on one database, one folder and one Redis.
    for (let index = 0; index < 2; index += 1) {
      nodes.push(
        await buildApp(
          loadConfig({
            NODE_ENV: 'test',
            LOG_LEVEL: 'silent',
            DATA_DIR: dataDir,
            STATIC_DIR: path.join(dataDir, 'no-static-build'),
            AUTH_RATE_LIMIT: '1000',
            REDIS_URL: url.toString(),
            REDIS_PREFIX: prefix,
            UPLOADS_AT_ONCE: '3',
            UPLOADS_PER_HOUR: '4',
          }),
        ),
      );
    }
    return async () => {
      // The keys this suite made, so the shared Redis keeps nothing of it.
      const redis = nodes[0]?.redis.limits;
      const keys = (await redis?.keys(`${prefix}-*`)) ?? [];
      if (keys.length > 0) await redis?.del(...keys);
      for (const node of nodes) await node.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    };
  });

  describe('two nodes', () => {
    it('share one member’s places and hourly budget', async () => {
      const [a, b] = nodes as [(typeof nodes)[0], (typeof nodes)[0]];
      const file = await noisyPhoto();
      const [me] = await signupMembers(a, 1);
      const held = [
        await holdGalleryUpload(a, me, file),
        await holdGalleryUpload(a, me, file),
        await holdGalleryUpload(a, me, file),
      ];
      await receiving(uploadsDir, 3);
      const elsewhere = await postUpload(b, me, file);
      expect(elsewhere.statusCode).toBe(429);
      expect(elsewhere.json()).toEqual({ error: AT_ONCE });
      expect(await finishAll(held)).toEqual([201, 201, 201]);

      // Three of four begun on node a; the fourth on node b, then none left on either.
      expect((await postUpload(b, me, file)).statusCode).toBe(201);
      const over = await postUpload(a, me, file);
      expect(over.statusCode).toBe(429);
      expect(over.json<{ error: string }>().error).toMatch(perHour(4));
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(3_500);
    });
  });
});
