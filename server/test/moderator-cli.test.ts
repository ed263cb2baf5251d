/**
 * `npm run moderator -- add|remove|list|unsuspend <username>` as an operator runs it
 * (docs/product.md "Moderation"): a process of its own on the server's settings (DATA_DIR or
 * DATABASE_URL), from the sources and from the compiled build; with REDIS_URL, a running server
 * sees the change at once.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MeResponse } from '../../src/contracts/user.ts';
import {
  type Member,
  PASSWORD,
  asBearer,
  describeWithRedis,
  forEachDialect,
  getMe,
  postLogin,
  signupMembers,
  useTestApp,
} from './helpers.ts';
import { acted, firstMember, report, userRow } from './safety-helpers.ts';
import { runNode, sharedSessionCacheEnv, type CommandOutcome } from './server-process.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const run = promisify(execFile);
const withRedis = await describeWithRedis('the moderator command’s word to running servers');

/** Runs the command (`node <args> add name`) with the app's settings; never throws on a failure. */
async function moderator(
  command: string[],
  config: { dataDir: string; databaseUrl: string | undefined },
  how: string[] = ['--import', 'tsx', 'server/src/moderator.ts'],
  env: Record<string, string> = {},
): Promise<CommandOutcome> {
  return runNode([...how, ...command], config, env);
}

forEachDialect((dialect) => {
  // Each command is a Node process of its own: a few seconds each on a busy machine.
  describe('from the sources', { timeout: 120_000 }, () => {
    const t = useTestApp(dialect);
    let first: Member;
    let member: Member;
    beforeAll(async () => {
      first = await firstMember(t.app);
      [member] = await signupMembers(t.app, 1);
    });

    it('adds a moderator, lists them and removes them again', async () => {
      const added = await moderator(['add', member.username.toUpperCase()], t.config);
      expect(added).toMatchObject({ code: 0, stdout: `${member.username} is a moderator.\n` });
      expect((await userRow(t.app, member.user.id)).is_moderator).toBe(1);

      const listed = await moderator(['list'], t.config);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain(`  ${first.username} <${first.email}>`);
      expect(listed.stdout).toContain(`  ${member.username} <${member.email}>`);

      const removed = await moderator(['remove', member.username], t.config);
      expect(removed).toMatchObject({
        code: 0,
        stdout: `${member.username} is no longer a moderator.\n`,
      });
      expect((await userRow(t.app, member.user.id)).is_moderator).toBe(0);
      expect((await moderator(['list'], t.config)).stdout).not.toContain(member.username);
    });

    it('lifts a suspension, and lists the suspended with their reason until then', async () => {
      const [reporter, suspended] = await signupMembers(t.app, 2);
      const id = await report(t.app, reporter, 'member', suspended.user.id);
      await acted(t.app, first, id, 'suspend', { reason: 'Spam.' });
      expect((await moderator(['list'], t.config)).stdout).toMatch(
        new RegExp(`Suspended:\\n  ${suspended.username} since \\S+: Spam\\.`),
      );

      const lifted = await moderator(['unsuspend', suspended.username], t.config);

      expect(lifted).toMatchObject({
        code: 0,
        stdout: `${suspended.username} is no longer suspended and can log in again.\n`,
      });
      expect(
        (await postLogin(t.app, { identifier: suspended.username, password: PASSWORD })).statusCode,
      ).toBe(200);
      expect((await moderator(['unsuspend', suspended.username], t.config)).stdout).toBe(
        `${suspended.username} was not suspended; nothing changed.\n`,
      );
    });

    it('exits 1 naming a member who does not exist, and changes nothing', async () => {
      const outcome = await moderator(['add', 'nobody.here'], t.config);

      expect(outcome.code).toBe(1);
      expect(outcome.stderr).toBe('No member is called nobody.here.\n');
    });

    it('exits 2 with the usage for a command it does not know or that lacks its name', async () => {
      for (const args of [[], ['add'], ['list', 'extra'], ['promote', 'x'], ['add', 'a', 'b']]) {
        const outcome = await moderator(args, t.config);

        expect(outcome.code).toBe(2);
        expect(outcome.stderr).toContain('Usage: npm run moderator -- <command>');
      }
    });
  });

  describe('from the compiled build', { timeout: 120_000 }, () => {
    const t = useTestApp(dialect);
    // Inside the project, so the compiled files find node_modules as build/ does.
    const outdir = path.join(ROOT, `.orbit-build-${randomBytes(4).toString('hex')}`);
    beforeAll(async () => {
      await run(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          'const { buildServer } = await import("./scripts/build.mjs"); await buildServer(process.argv[1]);',
          outdir,
        ],
        { cwd: ROOT },
      );
    }, 120_000);
    afterAll(() => fs.rm(outdir, { recursive: true, force: true }));

    it('runs build/moderator.mjs on the server’s database, migrations included', async () => {
      const [, member] = await signupMembers(t.app, 2);

      const added = await moderator(['add', member.username], t.config, [
        path.join(outdir, 'moderator.mjs'),
      ]);

      expect(added).toMatchObject({ code: 0, stdout: `${member.username} is a moderator.\n` });
      expect((await userRow(t.app, member.user.id)).is_moderator).toBe(1);
    });
  });

  withRedis('with REDIS_URL', { timeout: 120_000 }, () => {
    const shared = sharedSessionCacheEnv('moderator', dialect);
    const t = useTestApp(dialect, shared);

    it('tells the running servers, so the member’s next session check sees the change', async () => {
      await firstMember(t.app);
      const [member] = await signupMembers(t.app, 1);
      // A node serves its cache once it has heard the others for a while (about two seconds).
      await vi.waitFor(() => expect(t.app.sessions.sessionMemory?.cache.serving).toBe(true), {
        timeout: 5_000,
      });
      const isModerator = async () =>
        (await getMe(t.app, asBearer(member))).json<MeResponse>().user?.isModerator;
      expect(await isModerator()).toBe(false);

      const added = await moderator(['add', member.username], t.config, undefined, shared);

      expect(added.code).toBe(0);
      await vi.waitFor(async () => expect(await isModerator()).toBe(true), { timeout: 1_000 });
    });
  });
});
