/**
 * `npm run seed` as an operator runs it: a real process on the server's database (docs/decisions.md
 * "Demo members"). Demo members never moderate and never take the first-member mark, their
 * security answers are drawn afresh and printed with the passwords, and NODE_ENV=production is
 * refused unless `--force` is given.
 */
import { describe, expect, it } from 'vitest';
import { FIRST_MEMBER_SETTING } from '../src/features/auth/repository.ts';
import demoMembers from '../src/seed-members.json' with { type: 'json' };
import {
  ORIGIN,
  type TestApp,
  buildTestApp,
  forEachDialect,
  loginStatus,
  signupMembers,
  useTestApp,
  postReset,
} from './helpers.ts';
import { runNode, type CommandOutcome } from './server-process.ts';

/** Runs the seed from the sources on the app's database; never throws on a failure. */
async function seed(
  config: TestApp['config'],
  env: Record<string, string> = {},
  args: string[] = [],
): Promise<CommandOutcome> {
  return runNode(['--import', 'tsx', 'server/src/seed.ts', ...args], config, env);
}

/** Each created member's line of the printed table: username, password and security answer. */
function printed(stdout: string): Map<string, { password: string; answer: string }> {
  const rows = new Map<string, { password: string; answer: string }>();
  for (const match of stdout.matchAll(/^(\S+) +([^\s(]\S*) +(\S+) +\1@orbit\.example$/gm)) {
    const [, username = '', password = '', answer = ''] = match;
    rows.set(username, { password, answer });
  }
  return rows;
}

const usernames = demoMembers.map((member) => member.username);

forEachDialect((dialect) => {
  // Each seed is a Node process of its own hashing six passwords: seconds on a busy machine.
  describe('npm run seed', { timeout: 120_000 }, () => {
    const t = useTestApp(dialect);
    let output: CommandOutcome;

    it('adds the demo members and prints each one’s password and security answer', async () => {
      output = await seed(t.config, { PORT: '5123', PUBLIC_URL: '' });

      expect(output.code).toBe(0);
      expect(output.stdout).toMatch(/^username +password +security answer +email$/m);
      const rows = printed(output.stdout);
      expect([...rows.keys()]).toEqual(usernames);
      for (const [username, { password }] of rows)
        expect(await loginStatus(t.app, { username, password })).toBe(200);
      expect(output.stdout).toContain('Log in at http://localhost:5123/landing');
    });

    it('makes none of them a moderator, nor the install’s first member', async () => {
      const demo = await t.app.db
        .selectFrom('users')
        .select(['username', 'is_moderator'])
        .orderBy('username')
        .execute();
      expect(demo.map((row) => row.username).sort()).toEqual([...usernames].sort());
      expect(demo.filter((row) => row.is_moderator !== 0)).toEqual([]);
      expect(
        await t.app.db
          .selectFrom('server_settings')
          .selectAll()
          .where('key', '=', FIRST_MEMBER_SETTING)
          .execute(),
      ).toEqual([]);
      expect(output.stdout).toContain('Demo members are never moderators');
    });

    it('keeps no security answer in the repository: the printed one resets the password', async () => {
      expect(demoMembers.some((member) => 'securityAnswer' in member)).toBe(false);
      const astra = printed(output.stdout).get('astra.vega');
      const reset = (answer: string) =>
        postReset(
          t.app,
          { origin: ORIGIN },
          { identifier: 'astra.vega', answer, newPassword: 'Comet#Tail42' },
        );

      expect((await reset('Little Dipper')).statusCode).toBe(400);
      expect((await reset(astra?.answer.toUpperCase() ?? '')).statusCode).toBe(200);
    });

    it('draws the answers afresh on every run and for every member', async () => {
      const other = await buildTestApp({ dialect });
      try {
        const again = printed((await seed(other.config)).stdout);
        const first = printed(output.stdout);
        const answers = [...first.values(), ...again.values()].map((row) => row.answer);
        expect(answers).toHaveLength(2 * usernames.length);
        expect(new Set(answers).size).toBe(answers.length);
      } finally {
        await other.close();
      }
    });

    it('lets the first member who signs up afterwards take the mark, and so moderate', async () => {
      // One after the other: of two signups at once, either may be the first.
      const [first] = await signupMembers(t.app, 1);
      const [second] = await signupMembers(t.app, 1);

      expect(first.user.isModerator).toBe(true);
      expect(second.user.isModerator).toBe(false);
      expect(
        await t.app.db
          .selectFrom('server_settings')
          .select('value')
          .where('key', '=', FIRST_MEMBER_SETTING)
          .executeTakeFirst(),
      ).toEqual({ value: first.user.id });
    });

    it('leaves existing members unchanged, and says PUBLIC_URL when the operator set one', async () => {
      const again = await seed(t.config, { PORT: '5123', PUBLIC_URL: 'https://orbit.example/' });

      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(/^astra\.vega +\(exists, unchanged\) +astra\.vega@orbit/m);
      expect(printed(again.stdout).size).toBe(0);
      expect(again.stdout).toContain('Log in at https://orbit.example/landing');
    });
  });

  describe('npm run seed with NODE_ENV=production', { timeout: 120_000 }, () => {
    const t = useTestApp(dialect);
    const memberCount = async () =>
      (
        await t.app.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n;

    it('refuses, saying why and how to force it, and adds no one', async () => {
      const refused = await seed(t.config, { NODE_ENV: 'production' });

      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toBe(
        'npm run seed adds demo members whose passwords it prints, so it does not run with ' +
          'NODE_ENV=production; to add them anyway: npm run seed -- --force\n',
      );
      expect(Number(await memberCount())).toBe(0);
    });

    it('answers anything but --force with its usage', async () => {
      const wrong = await seed(t.config, { NODE_ENV: 'production' }, ['--forse']);

      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toBe('Usage: npm run seed [-- --force]\n');
      expect(Number(await memberCount())).toBe(0);
    });

    it('adds the demo members with --force, still no moderator among them', async () => {
      const forced = await seed(t.config, { NODE_ENV: 'production' }, ['--force']);

      expect(forced.code).toBe(0);
      expect([...printed(forced.stdout).keys()]).toEqual(usernames);
      expect(
        await t.app.db.selectFrom('users').select('id').where('is_moderator', '=', 1).execute(),
      ).toEqual([]);
    });
  });
});
