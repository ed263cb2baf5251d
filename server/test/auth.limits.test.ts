/**
 * The auth limits (docs/decisions.md "Passwords and abuse"): failed logins back off per account,
 * wrong security answers are counted per account, and an IPv6 client's address budget is its /64.
 */
import { describe, expect, it } from 'vitest';
import {
  type Member,
  SECURITY_ANSWER,
  forEachApp,
  forEachDialect,
  postLogin,
  signupUser,
  useTestApp,
  postReset,
} from './helpers.ts';

const WRONG = 'Wrong#Pass1';
const NEW_PASSWORD = 'Nebula#2025x';
const TOO_MANY = /^Too many attempts\. Try again in \d+ seconds\.$/;

forEachApp((t) => {
  const login = (identifier: string, password: string) =>
    postLogin(t.app, { identifier, password });

  const failLogins = async (identifier: string, times: number) => {
    const statuses = [];
    for (let index = 0; index < times; index += 1)
      statuses.push((await login(identifier, WRONG)).statusCode);
    return statuses;
  };

  describe('failed logins back off per account', () => {
    it('answers 429 with Retry-After after 5 failures, without checking the password', async () => {
      const member = await signupUser(t.app);

      const failures = await failLogins(member.username, 5);
      const right = await login(member.username, member.password);

      expect(failures).toEqual([401, 401, 401, 401, 401]);
      expect(right.statusCode).toBe(429);
      expect(right.json<{ error: string }>().error).toMatch(TOO_MANY);
      expect(right.headers['retry-after']).toBe('1');
      expect(right.headers['set-cookie']).toBeUndefined();
    });

    it('counts the account, whether it is named by username or by email', async () => {
      const member = await signupUser(t.app);
      await failLogins(member.username, 3);
      await failLogins(member.email.toUpperCase(), 2);

      expect((await login(member.email, member.password)).statusCode).toBe(429);
    });

    it('backs off an unknown name exactly like a real one', async () => {
      const failures = await failLogins('nobody_here_at_all', 5);
      const next = await login('  NOBODY_here_at_all ', WRONG);

      expect(failures).toEqual([401, 401, 401, 401, 401]);
      expect(next.statusCode).toBe(429);
      expect(next.headers['retry-after']).toBe('1');
    });

    it('leaves other accounts alone, and a right password starts the count again', async () => {
      const [member, other] = [await signupUser(t.app), await signupUser(t.app)];
      await failLogins(other.username, 5);
      // Asked at once: the first backoff lasts a second, less than the logins below may take.
      const otherHeld = await login(other.username, other.password);
      await failLogins(member.username, 4);

      const first = await login(member.username, member.password);
      const again = await failLogins(member.username, 4);
      const second = await login(member.username, member.password);

      expect(otherHeld.statusCode).toBe(429);
      expect(first.statusCode).toBe(200);
      expect(again).toEqual([401, 401, 401, 401]);
      expect(second.statusCode).toBe(200);
    });
  });

  describe('wrong security answers are counted per account', () => {
    const reset = (member: Member, answer: string) =>
      postReset(t.app, {}, { identifier: member.username, answer, newPassword: NEW_PASSWORD });

    it('answers 429 after 5 wrong answers, even to the right one, for an hour', async () => {
      const member = await signupUser(t.app);
      const wrongs = [];
      for (let index = 0; index < 5; index += 1)
        wrongs.push((await reset(member, 'Apollo')).statusCode);

      const right = await reset(member, SECURITY_ANSWER);

      expect(wrongs).toEqual([400, 400, 400, 400, 400]);
      expect(right.statusCode).toBe(429);
      expect(right.json<{ error: string }>().error).toMatch(TOO_MANY);
      expect(Number(right.headers['retry-after'])).toBeGreaterThan(59 * 60);
      expect((await login(member.username, member.password)).statusCode).toBe(200);
    });

    it('a right answer ends the account’s login backoff', async () => {
      const member = await signupUser(t.app);
      await failLogins(member.username, 5);
      const waiting = await login(member.username, member.password);

      const answered = await reset(member, SECURITY_ANSWER);

      expect(waiting.statusCode).toBe(429);
      expect(answered.statusCode).toBe(200);
      expect((await login(member.username, NEW_PASSWORD)).statusCode).toBe(200);
    });
  });
});

forEachDialect((dialect) => {
  describe('address budgets (AUTH_RATE_LIMIT=3)', () => {
    const t = useTestApp(dialect, { AUTH_RATE_LIMIT: '3' });
    const from = (remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/forgot-password/question',
        payload: { identifier: 'nobody_here' },
        remoteAddress,
      });
    const statuses = async (addresses: string[]) => {
      const answered = [];
      for (const address of addresses) answered.push((await from(address)).statusCode);
      return answered;
    };

    it.each([
      {
        name: 'shares one budget across an IPv6 /64; another /64 has its own',
        together: [
          '2001:db8:1:1::1',
          '2001:db8:1:1::2',
          '2001:db8:1:1:ffff:ffff:ffff:ffff',
          '2001:db8:1:1::abcd',
        ],
        apart: '2001:db8:1:2::1',
      },
      {
        name: 'counts an IPv4 address and its IPv4-mapped IPv6 form as one, each address alone',
        together: ['192.0.2.7', '::ffff:192.0.2.7', '::ffff:c000:207', '192.0.2.7'],
        apart: '192.0.2.8',
      },
    ])('$name', async ({ together, apart }) => {
      const shared = await statuses(together);
      const own = await statuses([apart]);

      expect(shared).toEqual([404, 404, 404, 429]);
      expect(own).toEqual([404]);
    });
  });
});
