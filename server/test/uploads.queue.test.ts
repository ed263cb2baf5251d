/**
 * Every picture is made in one queue of IMAGE_WORKERS at a time and IMAGE_QUEUE_LENGTH waiting
 * (docs/decisions.md "Uploads are checked and cleaned"); past that, 503 with Retry-After, logged
 * at warn. Profile pictures stream to the incoming folder as gallery photos do.
 */
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import { galleryState, jpegPart, postUpload } from './gallery-helpers.ts';
import {
  type Member,
  asCookie,
  forEachDialect,
  patchProfileForm,
  postSignup,
  signupMembers,
} from './helpers.ts';
import { WARN, holdUpload, incomingFiles, useLoggedApp } from './uploads-helpers.ts';

const BUSY = 'Orbit is busy. Try again in a moment.';

forEachDialect((dialect) => {
  const t = useLoggedApp(dialect, { IMAGE_WORKERS: '1', IMAGE_QUEUE_LENGTH: '1' });
  let member: Member;
  let release: (() => void) | undefined;

  beforeAll(async () => {
    [member] = await signupMembers(t.app, 1);
  });
  afterEach(() => {
    release?.();
    release = undefined;
  });

  /** Fills the queue (one picture being made, one waiting) until the returned release. */
  function fillQueue(): Promise<unknown> {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const jobs = Promise.all([t.app.images.run(() => gate), t.app.images.run(() => gate)]);
    release = open;
    return jobs;
  }

  it('refuses an upload with 503 and Retry-After when the queue is full, and logs it at warn', async () => {
    const jobs = fillQueue();
    expect(t.app.images.active).toBe(1);
    expect(t.app.images.waiting).toBe(1);
    const before = t.logs().length;

    const refused = await postUpload(t.app, member, await jpegPart());
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual({ error: BUSY });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const logged = t.logs().slice(before);
    expect(logged.map((entry) => [entry.level, entry.msg])).toEqual([
      [WARN, 'picture queue full; upload refused'],
    ]);
    // Nothing was kept of the refused upload.
    expect((await galleryState(t.app, t.config.uploadsDir)).incoming).toEqual([]);

    const avatar = await patchProfileForm(t.app, member, {
      profilePic: await jpegPart(),
    });
    expect(avatar.statusCode).toBe(503);
    const signup = await postSignup(t.app);
    expect(signup.statusCode).toBe(503);
    expect(signup.json()).toEqual({ error: BUSY });

    release?.();
    await jobs;
    expect((await postUpload(t.app, member, await jpegPart())).statusCode).toBe(201);
  });

  it('lets an upload wait its turn while the queue has room', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    release = open;
    const busy = t.app.images.run(() => gate);
    const waiting = postUpload(t.app, member, await jpegPart());
    await vi.waitFor(() => expect(t.app.images.waiting).toBe(1), { timeout: 10_000 });
    open();
    await busy;
    expect((await waiting).statusCode).toBe(201);
  });

  it('streams a new profile picture to the incoming folder while it arrives', async () => {
    const held = await holdUpload(
      t.app,
      { method: 'PATCH', url: '/api/auth/profile', headers: asCookie(member) },
      { profilePic: await jpegPart(1200, 900) },
    );
    await vi.waitFor(async () => expect(await incomingFiles(t.config.uploadsDir)).toHaveLength(1), {
      timeout: 10_000,
    });
    const response = await held.finish();
    expect(response.statusCode).toBe(200);
    expect(await incomingFiles(t.config.uploadsDir)).toEqual([]);
  });
});
