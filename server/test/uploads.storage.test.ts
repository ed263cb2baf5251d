/**
 * A disk that cannot take an upload is Orbit's failure, not the member's (docs/product.md
 * "Errors"): 507 when it is full, 500 when a folder cannot be written, the code in the log at
 * error level, nothing of it in the answer, and never a 400 "send it again".
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { galleryState, postUpload } from './gallery-helpers.ts';
import {
  type FilePart,
  type Member,
  forEachDialect,
  patchProfileForm,
  postSignup,
  signupMembers,
} from './helpers.ts';
import { ERROR, type LogEntry, noisyPhoto, useLoggedApp } from './uploads-helpers.ts';

const run = promisify(execFile);

const SAVE_FAILED = 'Orbit couldn’t save the picture. Try again later.';
const STORAGE_FULL = 'Orbit’s storage is full. Try again later.';

/** Whether this process may mount a file system (root with CAP_SYS_ADMIN, as in CI). */
async function mountProblem(): Promise<string | null> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'orbit-mount-'));
  try {
    await run('mount', ['-t', 'tmpfs', '-o', 'size=4k', 'tmpfs', dir]);
    await run('umount', [dir]);
    return null;
  } catch (error) {
    return error instanceof Error
      ? (error.message.split('\n')[0] ?? 'mount failed')
      : String(error);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Replaces a folder by a file of the same name until `restore()`. */
async function fileInPlaceOf(dir: string) {
  await fs.rm(dir, { recursive: true, force: true });
  await fs.writeFile(dir, 'not a folder');
  return async () => {
    await fs.rm(dir, { force: true });
    await fs.mkdir(dir, { recursive: true });
  };
}

/** Mounts a small tmpfs over a folder (read-only, or of one page, so it is full at once). */
async function tmpfsOver(dir: string, options: 'ro' | 'full') {
  await fs.mkdir(dir, { recursive: true });
  await run('mount', [
    '-t',
    'tmpfs',
    '-o',
    options === 'ro' ? 'size=64k,ro' : 'size=4k',
    'tmpfs',
    dir,
  ]);
  return async () => {
    await run('umount', [dir]);
  };
}

const mountable = await mountProblem();
if (mountable) {
  if (process.env.ORBIT_REQUIRE_ALL === '1')
    throw new Error(`cannot mount a tmpfs (${mountable}); ORBIT_REQUIRE_ALL=1 requires it.`);
  console.warn(`⚠ cannot mount a tmpfs (${mountable}): skipping the full and read-only disks.`);
}
const describeMounted = mountable ? describe.skip : describe;

function errorsLogged(logs: LogEntry[], from: number): LogEntry[] {
  return logs.slice(from).filter((entry) => entry.level === ERROR);
}

forEachDialect((dialect) => {
  const t = useLoggedApp(dialect);
  let member: Member;
  let file: FilePart;
  let restore: (() => Promise<void>) | undefined;
  const incoming = () => path.join(t.config.uploadsDir, '.incoming');
  const gallery = () => path.join(t.config.uploadsDir, 'gallery');
  const avatars = () => path.join(t.config.uploadsDir, 'avatars');

  beforeAll(async () => {
    [member] = await signupMembers(t.app, 1);
    file = await noisyPhoto();
  });
  afterEach(async () => {
    await restore?.();
    restore = undefined;
  });

  /** Uploads `file` and checks the answer and the one error line the failure logged. */
  async function expectFailure(
    send: () => Promise<{ statusCode: number; body: string }>,
    status: 500 | 507,
    codes: string[],
    reason: RegExp,
  ) {
    const before = t.logs().length;
    const response = await send();
    expect(response.statusCode).toBe(status);
    expect(JSON.parse(response.body)).toEqual({
      error: status === 507 ? STORAGE_FULL : SAVE_FAILED,
    });
    const errors = errorsLogged(t.logs(), before);
    expect(errors).toHaveLength(1);
    expect(codes).toContain(errors[0]?.code);
    expect(errors[0]?.msg).toMatch(reason);
  }

  /**
   * With a file where `folder` should be, `send` answers 500 and logs the error code and `reason`;
   * the file is taken away again after.
   */
  async function expectUnwritable(
    folder: string,
    send: () => Promise<{ statusCode: number; body: string }>,
    reason: RegExp,
  ) {
    restore = await fileInPlaceOf(folder);
    await expectFailure(send, 500, ['EEXIST', 'ENOTDIR'], reason);
    await restore();
    restore = undefined;
  }

  it('answers 500 and logs the code when the incoming folder cannot be made', async () => {
    await expectUnwritable(
      incoming(),
      () => postUpload(t.app, member, file),
      /incoming folder.*cannot write/,
    );
    expect((await postUpload(t.app, member, file)).statusCode).toBe(201);
  });

  it('answers 500 for a gallery folder it cannot write, and keeps no row and no file', async () => {
    const rowsBefore = (await galleryState(t.app, t.config.uploadsDir)).rows;
    await expectUnwritable(
      gallery(),
      () => postUpload(t.app, member, file),
      /gallery picture.*cannot write/,
    );
    const state = await galleryState(t.app, t.config.uploadsDir);
    expect(state.rows).toBe(rowsBefore);
    expect(state.gallery).toEqual([]);
    expect(state.incoming).toEqual([]);
  });

  it('answers 500 for a profile picture it cannot store', async () => {
    await expectUnwritable(
      avatars(),
      () => patchProfileForm(t.app, member, { profilePic: file }),
      /profile picture.*cannot write/,
    );
  });

  describeMounted('on a full or read-only file system (a tmpfs of its own)', () => {
    it('answers 507 when the incoming folder is full, and leaves no partial file', async () => {
      restore = await tmpfsOver(incoming(), 'full');
      await expectFailure(
        () => postUpload(t.app, member, file),
        507,
        ['ENOSPC'],
        /incoming folder.*no space left/,
      );
      expect(await fs.readdir(incoming())).toEqual([]);
    });

    it.each([
      {
        title: 'answers 500 when the incoming folder is read-only (not a 400 "send it again")',
        folder: incoming,
        mode: 'ro',
        signup: false,
        status: 500,
        log: /incoming folder.*cannot write \(EROFS\)/,
      },
      {
        title: 'answers 500 when the gallery folder is read-only',
        folder: gallery,
        mode: 'ro',
        signup: false,
        status: 500,
        log: /gallery picture.*cannot write \(EROFS\)/,
      },
      {
        title: 'answers 507 when the gallery folder is full',
        folder: gallery,
        mode: 'full',
        signup: false,
        status: 507,
        log: /gallery picture.*no space left \(ENOSPC\)/,
      },
      {
        title: 'answers 507 when a signup’s picture finds the disk full',
        folder: incoming,
        mode: 'full',
        signup: true,
        status: 507,
        log: /incoming folder.*no space left/,
      },
    ] as const)('$title', async ({ folder, mode, signup, status, log }) => {
      restore = await tmpfsOver(folder(), mode);
      await expectFailure(
        () => (signup ? postSignup(t.app, { profilePic: file }) : postUpload(t.app, member, file)),
        status,
        [mode === 'ro' ? 'EROFS' : 'ENOSPC'],
        log,
      );
    });
  });
});
