/**
 * Moderation (docs/product.md "Moderation"): who moderates, what only moderators may call, the
 * reports they read, and what dismissing, removing a photo and suspending a member do.
 */
import fs from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { CompiledQuery } from 'kysely';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { GalleryImage } from '../../src/contracts/gallery.ts';
import type { Notification, NotificationPage } from '../../src/contracts/notifications.ts';
import {
  MEMBER_GONE,
  MODERATORS_ONLY,
  type ModerationReport,
  NOT_A_PHOTO_REPORT,
  NOT_SUSPENDED,
  NO_SUCH_MEMBER,
  PHOTO_GONE,
  REPORTS_PAGE_SIZE,
  REPORT_CURSOR_INVALID,
  REPORT_NOT_DISMISSED,
  REPORT_OPEN,
  REPORT_REOPENED_ELSEWHERE,
  REPORT_RESOLVED,
  RULES_PATH,
  type SuspendedList,
  SUSPENDED_LOGIN,
  SUSPEND_MODERATOR,
  SUSPEND_SELF,
} from '../../src/contracts/safety.ts';
import type { AuthResponse } from '../../src/contracts/user.ts';
import { issueSession, signup } from '../src/features/auth/service.ts';
import { setModerator, unsuspend } from '../src/features/moderation/operator.ts';
import { suspendedMembersQuery } from '../src/features/moderation/repository.ts';
import { suspend } from '../src/features/moderation/service.ts';
import { FIRST_MEMBER_SETTING } from '../src/features/auth/repository.ts';
import { deleteImage, diskPath, listGallery, patchImage, uploadImage } from './gallery-helpers.ts';
import {
  type Member,
  ORIGIN,
  PASSWORD,
  asBearer,
  buildTestApp,
  forEachDialect,
  getMe,
  loginAs,
  pngImage,
  postLogin,
  postSignup,
  pushRowsOf,
  sessionsOf,
  signupMembers,
  signupPair,
  subscribeDevice,
  uniqueUsername,
  useTestApp,
  getNotifications,
} from './helpers.ts';
import {
  act,
  acted,
  firstMember,
  getReports,
  report,
  reportsPage,
  userRow,
} from './safety-helpers.ts';
import { connected, listen, useSockets, nextEvent } from './sockets.ts';
import { RELAY_SECRET } from './push-endpoints.ts';

const openSocket = useSockets();

const ROUTES = [
  ['GET', '/api/moderation/reports'],
  ['POST', '/api/moderation/reports/1/dismiss'],
  ['POST', '/api/moderation/reports/1/remove-photo'],
  ['POST', '/api/moderation/reports/1/suspend'],
  ['POST', '/api/moderation/reports/1/reopen'],
  ['GET', '/api/moderation/suspended'],
  ['DELETE', '/api/moderation/suspended/someone'],
] as const;

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );

forEachDialect((dialect) => {
  describe('the first member', () => {
    /** A fresh install: its own app on an empty database. */
    const fresh = async <T>(work: (app: FastifyInstance) => Promise<T>) => {
      const own = await buildTestApp({ dialect });
      try {
        return await work(own.app);
      } finally {
        await own.close();
      }
    };
    const moderatorsOf = (app: FastifyInstance) =>
      app.db.selectFrom('users').select('id').where('is_moderator', '=', 1).execute();

    it('is a moderator, and the next member is not', async () => {
      await fresh(async (app) => {
        const [first] = await signupMembers(app, 1);
        const [second] = await signupMembers(app, 1);

        expect(first.user.isModerator).toBe(true);
        expect(second.user.isModerator).toBe(false);
        expect((await getMe(app, asBearer(first))).json<AuthResponse>().user.isModerator).toBe(
          true,
        );
        expect((await getMe(app, asBearer(second))).json<AuthResponse>().user.isModerator).toBe(
          false,
        );
      });
    });

    it('is one member of several signing up at once', async () => {
      await fresh(async (app) => {
        const members = await signupMembers(app, 5);

        const moderators = members.filter((member) => member.user.isModerator);
        expect(moderators).toHaveLength(1);
        expect(await moderatorsOf(app)).toEqual([{ id: moderators[0]?.user.id }]);
        const mark = await app.db
          .selectFrom('server_settings')
          .select('value')
          .where('key', '=', FIRST_MEMBER_SETTING)
          .executeTakeFirstOrThrow();
        expect(mark.value).toBe(moderators[0]?.user.id);
      });
    });

    it('is the member whose signup succeeded when the other first signup fails', async () => {
      await fresh(async (app) => {
        const username = uniqueUsername('f');
        const responses = await Promise.all(
          ['a', 'b'].map((tag) =>
            postSignup(app, {
              username,
              email: `${tag}.${username}@example.test`,
              securityQuestion: '',
              securityAnswer: '',
            }),
          ),
        );

        const statuses = responses.map((response) => response.statusCode).sort();
        expect(statuses).toEqual([201, 409]);
        const created = responses.find((response) => response.statusCode === 201);
        expect(created?.json<AuthResponse>().user.isModerator).toBe(true);
        expect(await moderatorsOf(app)).toHaveLength(1);
      });
    });

    it('is the first member who is not a demo member, whoever came before', async () => {
      await fresh(async (app) => {
        const demo = async (username: string) =>
          signup(
            { ...app.sessions, images: app.images },
            {
              username,
              email: `${username}@orbit.example`,
              password: PASSWORD,
              firstName: 'Demo',
              lastName: 'Member',
              birthday: '1990-05-17',
              referral: '',
              interests: [],
              securityQuestion: '',
              securityAnswer: '',
              favoriteQuote: '',
            },
            await pngImage(),
            { demo: true },
          );
        const before = await demo(uniqueUsername('d'));

        const [first] = await signupMembers(app, 1);
        const [second] = await signupMembers(app, 1);
        const after = await demo(uniqueUsername('d'));

        expect(before.user.isModerator).toBe(false);
        expect(after.user.isModerator).toBe(false);
        expect([first.user.isModerator, second.user.isModerator]).toEqual([true, false]);
        expect(await moderatorsOf(app)).toEqual([{ id: first.user.id }]);
        const mark = await app.db
          .selectFrom('server_settings')
          .select('value')
          .where('key', '=', FIRST_MEMBER_SETTING)
          .executeTakeFirstOrThrow();
        expect(mark.value).toBe(first.user.id);
      });
    });

    it('is no one on an install that had members before moderators existed', async () => {
      await fresh(async (app) => {
        const [earlier] = await signupMembers(app, 1);
        // As an install from before this release: members, no moderator and no mark.
        await app.db
          .deleteFrom('server_settings')
          .where('key', '=', FIRST_MEMBER_SETTING)
          .execute();
        await app.db.updateTable('users').set({ is_moderator: 0 }).execute();

        const later = await signupMembers(app, 2);

        expect([earlier, ...later].map((member) => member.user.isModerator)).toEqual([
          true,
          false,
          false,
        ]);
        expect(await moderatorsOf(app)).toEqual([]);
      });
    });
  });

  describe('moderation', () => {
    const t = useTestApp(dialect, {
      RELAY_SECRET,
      PUSH_ALLOWED_HOSTS: 'push.example.test',
    });
    let moderator: Member;
    let url = '';
    beforeAll(async () => {
      moderator = await firstMember(t.app);
      url = await listen(t.app);
    });
    const connectAs = (member: Member) =>
      connected(openSocket(url, { auth: { token: member.token } }));
    const notificationsOf = async (member: Member) =>
      (await getNotifications(t.app, asBearer(member))).json<NotificationPage>();
    const reportRow = (id: string) =>
      t.app.db
        .selectFrom('reports')
        .selectAll()
        .where('id', '=', Number(id))
        .executeTakeFirstOrThrow();

    describe('who may call', () => {
      it.each(ROUTES)('answers %s %s with 401 when signed out', async (method, path) => {
        const response = await t.app.inject({ method, url: path, headers: { origin: ORIGIN } });

        expect(response.statusCode).toBe(401);
      });

      it.each(ROUTES)(
        'answers %s %s with 403 to a member, before reading the request',
        async (method, path) => {
          const [member] = await signupMembers(t.app, 1);

          const payloads =
            method === 'GET' ? [undefined] : [undefined, { reason: 'x' }, { no: [1] }];
          for (const payload of payloads) {
            const response = await t.app.inject({
              method,
              url: `${path}?status=nonsense&before=%25`,
              headers: asBearer(member),
              ...(payload ? { payload } : {}),
            });
            expect(response.statusCode).toBe(403);
            expect(response.json()).toEqual({ error: MODERATORS_ONLY });
          }
        },
      );

      it('answers 403 at once to a moderator the operator has just removed', async () => {
        const setModerator = (member: Member, moderator: boolean) =>
          t.app.db
            .updateTable('users')
            .set({ is_moderator: moderator ? 1 : 0 })
            .where('id', '=', member.user.id)
            .execute();
        const [other] = await signupMembers(t.app, 1);
        await setModerator(other, true);
        expect((await getReports(t.app, other, {})).statusCode).toBe(200);

        // What `npm run moderator -- remove` does, with the member's session remembered meanwhile.
        await setModerator(other, false);

        expect((await getReports(t.app, other, {})).statusCode).toBe(403);
      });
    });

    describe('the reports', () => {
      it('lists a photo report with its photo, its owner and who reported it', async () => {
        const [reporter, owner] = await signupPair(t.app);
        const photo = await uploadImage(t.app, owner);
        const id = await report(t.app, reporter, 'image', photo.id, 'violence');

        const page = await reportsPage(t.app, moderator);

        expect(page.reports[0]).toEqual({
          id,
          kind: 'image',
          reason: 'violence',
          note: 'See this.',
          createdAt: expect.stringMatching(/^\d{4}-/) as string,
          reporter: {
            id: reporter.user.id,
            username: reporter.username,
            profileImage: reporter.user.profileImage,
          },
          member: {
            id: owner.user.id,
            username: owner.username,
            profileImage: owner.user.profileImage,
          },
          image: { id: photo.id, url: photo.url, thumbnailUrl: photo.thumbnailUrl, caption: '' },
          status: 'open',
          resolution: null,
          resolvedBy: null,
          resolvedAt: null,
        } satisfies ModerationReport);
      });

      it('names a member whose account is gone as null, and a photo that is gone as null', async () => {
        const [reporter, owner, member] = await signupMembers(t.app, 3);
        const photo = await uploadImage(t.app, owner);
        const photoReport = await report(t.app, reporter, 'image', photo.id);
        const memberReport = await report(t.app, reporter, 'member', member.user.id);
        await deleteImage(t.app, owner, photo.id);
        await t.app.db.deleteFrom('users').where('id', '=', member.user.id).execute();

        const { reports } = await reportsPage(t.app, moderator);
        const byId = new Map(reports.map((item) => [item.id, item]));

        expect(byId.get(photoReport)).toMatchObject({ image: null, member: { id: owner.user.id } });
        expect(byId.get(memberReport)).toMatchObject({ member: null, image: null });
      });

      it('pages open reports newest first and resolved ones latest resolved first', async () => {
        const [reporter] = await signupMembers(t.app, 1);
        const at = new Date().toISOString();
        const rows = await t.app.db
          .insertInto('reports')
          .values(
            Array.from({ length: REPORTS_PAGE_SIZE + 5 }, (_, index) => ({
              reporter_id: reporter.user.id,
              target_kind: 'member' as const,
              target_id: `gone-${index}`,
              target_user_id: `gone-${index}`,
              reason: 'spam',
              note: '',
              status: 'open' as const,
              created_at: at,
            })),
          )
          .returning('id')
          .execute();
        const ids = rows.map((row) => String(row.id));
        // Resolved at one moment in two groups: the page ends inside a run of equal times.
        await t.app.db
          .updateTable('reports')
          .set({ status: 'resolved', resolution: 'dismissed', resolved_by: moderator.user.id })
          .set((eb) => ({
            resolved_at: eb
              .case()
              .when('id', '<=', Number(ids[9]))
              .then('2099-01-02T00:00:00.000Z')
              .else('2099-01-01T00:00:00.000Z')
              .end(),
          }))
          .where(
            'id',
            'in',
            rows.map((row) => row.id),
          )
          .where('id', '>', Number(ids[4]))
          .execute();

        const all = async (status: string) => {
          const seen: ModerationReport[] = [];
          let before: string | null = null;
          for (let pages = 0; pages < 10; pages++) {
            const page = await reportsPage(t.app, moderator, {
              status,
              ...(before ? { before } : {}),
            });
            expect(page.reports.length).toBeLessThanOrEqual(REPORTS_PAGE_SIZE);
            seen.push(...page.reports);
            before = page.nextCursor;
            if (!before) break;
          }
          return seen;
        };

        const open = (await all('open')).map((item) => item.id);
        expect(open.filter((id) => ids.includes(id))).toEqual(ids.slice(0, 5).reverse());
        expect(new Set(open).size).toBe(open.length);
        const resolved = (await all('resolved')).filter((item) => ids.includes(item.id));
        expect(resolved.map((item) => item.id)).toEqual([
          ...ids.slice(5, 10).reverse(),
          ...ids.slice(10).reverse(),
        ]);
        expect(resolved[0]).toMatchObject({
          status: 'resolved',
          resolution: 'dismissed',
          resolvedBy: { id: moderator.user.id, username: moderator.username },
          resolvedAt: '2099-01-02T00:00:00.000Z',
        });
      });

      it.each([
        ['not a cursor at all', 'open', '%%%'],
        ['a cursor the server did not write', 'open', Buffer.from('o-1').toString('base64url')],
        [
          'an open cursor for resolved reports',
          'resolved',
          Buffer.from('o5').toString('base64url'),
        ],
        [
          'a resolved cursor for open reports',
          'open',
          Buffer.from('r2099~5').toString('base64url'),
        ],
      ])('answers 400 to %s', async (_what, status, before) => {
        const response = await getReports(t.app, moderator, { status, before });

        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ error: REPORT_CURSOR_INVALID });
      });

      it('answers 400 to a status that is neither open nor resolved', async () => {
        const response = await getReports(t.app, moderator, { status: 'all' });

        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ error: 'Ask for open or resolved reports.' });
      });
    });

    describe('dismiss', () => {
      it('resolves the report as dismissed by the moderator, once', async () => {
        const [reporter, member] = await signupPair(t.app);
        const id = await report(t.app, reporter, 'member', member.user.id);

        const dismissed = await acted(t.app, moderator, id, 'dismiss');
        const again = await act(t.app, moderator, id, 'dismiss');

        expect(dismissed).toMatchObject({
          id,
          status: 'resolved',
          resolution: 'dismissed',
          resolvedBy: { id: moderator.user.id },
          resolvedAt: expect.stringMatching(/^\d{4}-/) as unknown,
        });
        expect(again.statusCode).toBe(409);
        expect(again.json()).toEqual({ error: REPORT_RESOLVED });
        expect((await userRow(t.app, member.user.id)).suspended_at).toBeNull();
      });

      it('resolves a report once when two moderators act on it at once', async () => {
        const [reporter, member] = await signupPair(t.app);
        const id = await report(t.app, reporter, 'member', member.user.id);

        const responses = await Promise.all([
          act(t.app, moderator, id, 'dismiss'),
          act(t.app, moderator, id, 'suspend', { reason: 'Spam.' }),
        ]);

        expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
      });

      it.each([
        ['an unknown report', '999999', 404, 'No such report.'],
        ['an id past the database’s range', '99999999999', 404, 'No such report.'],
        ['an id that is not a number', 'abc', 400, 'No such report.'],
      ])('answers %s with %i', async (_what, id, status, error) => {
        const response = await act(t.app, moderator, id, 'dismiss');

        expect(response.statusCode).toBe(status);
        expect(response.json()).toEqual({ error });
      });
    });

    describe('undoing dismiss', () => {
      const reopen = (member: Member, id: string) =>
        t.app.inject({
          method: 'POST',
          url: `/api/moderation/reports/${id}/reopen`,
          headers: asBearer(member),
        });

      it('opens the dismissed report again, as it was before', async () => {
        const [reporter, member] = await signupPair(t.app);
        const id = await report(t.app, reporter, 'member', member.user.id);
        const before = (await reportsPage(t.app, moderator)).reports.find((one) => one.id === id);
        await acted(t.app, moderator, id, 'dismiss');

        const response = await reopen(moderator, id);

        expect(response.statusCode).toBe(200);
        expect(response.json<{ report: ModerationReport }>().report).toEqual(before);
        expect((await reportsPage(t.app, moderator)).reports.map((one) => one.id)).toContain(id);
        expect(
          (await reportsPage(t.app, moderator, { status: 'resolved' })).reports.map(
            (one) => one.id,
          ),
        ).not.toContain(id);
        // Open again, it can be acted on again.
        expect((await act(t.app, moderator, id, 'dismiss')).statusCode).toBe(200);
      });

      it('answers 409 for an open report, and for one resolved otherwise than dismissed', async () => {
        const [reporter, owner] = await signupPair(t.app);
        const photo = await uploadImage(t.app, owner);
        const open = await report(t.app, reporter, 'member', owner.user.id);
        const removed = await report(t.app, reporter, 'image', photo.id);
        await acted(t.app, moderator, removed, 'remove-photo');

        const answers = [await reopen(moderator, open), await reopen(moderator, removed)];

        expect(answers.map((answer) => [answer.statusCode, answer.json<unknown>()])).toEqual([
          [409, { error: REPORT_OPEN }],
          [409, { error: REPORT_NOT_DISMISSED }],
        ]);
        expect(await reportRow(removed)).toMatchObject({
          status: 'resolved',
          resolution: 'photo_removed',
        });
      });

      it('answers 409 once the reporter has reported the same again, keeping the newer report', async () => {
        const [reporter, member] = await signupPair(t.app);
        const id = await report(t.app, reporter, 'member', member.user.id);
        await acted(t.app, moderator, id, 'dismiss');
        const newer = await report(t.app, reporter, 'member', member.user.id);

        const response = await reopen(moderator, id);

        expect(response.statusCode).toBe(409);
        expect(response.json()).toEqual({ error: REPORT_REOPENED_ELSEWHERE });
        expect(await reportRow(id)).toMatchObject({ status: 'resolved', resolution: 'dismissed' });
        expect(await reportRow(newer)).toMatchObject({ status: 'open' });
      });

      it('answers 404 for an unknown report, and 403 to a member, changing nothing', async () => {
        const [reporter, member] = await signupPair(t.app);
        const id = await report(t.app, reporter, 'member', member.user.id);
        await acted(t.app, moderator, id, 'dismiss');

        const unknown = await reopen(moderator, '999999');
        const byMember = await reopen(reporter, id);

        expect([unknown.statusCode, unknown.json()]).toEqual([404, { error: 'No such report.' }]);
        expect([byMember.statusCode, byMember.json()]).toEqual([403, { error: MODERATORS_ONLY }]);
        expect(await reportRow(id)).toMatchObject({ status: 'resolved', resolution: 'dismissed' });
      });
    });

    describe('suspended members', () => {
      const suspendedList = async (member: Member) => {
        const response = await t.app.inject({
          method: 'GET',
          url: '/api/moderation/suspended',
          headers: asBearer(member),
        });
        return { status: response.statusCode, body: response.json<SuspendedList>() };
      };
      const lift = (member: Member, userId: string) =>
        t.app.inject({
          method: 'DELETE',
          url: `/api/moderation/suspended/${encodeURIComponent(userId)}`,
          headers: asBearer(member),
        });
      const suspendOne = async (reason: string) => {
        const [member, reporter] = await signupMembers(t.app, 2);
        const id = await report(t.app, reporter, 'member', member.user.id);
        await acted(t.app, moderator, id, 'suspend', { reason });
        return member;
      };

      it('lists suspended members latest first, with the reason and when', async () => {
        const earlier = await suspendOne('Spam links.');
        const later = await suspendOne('Harassment.');
        const [free] = await signupMembers(t.app, 1);

        const { status, body } = await suspendedList(moderator);

        expect(status).toBe(200);
        const ids = body.members.map((member) => member.id);
        expect(ids.indexOf(later.user.id)).toBeLessThan(ids.indexOf(earlier.user.id));
        expect(ids).not.toContain(free.user.id);
        expect(body.members.find((member) => member.id === later.user.id)).toEqual({
          id: later.user.id,
          username: later.user.username,
          profileImage: expect.any(String) as unknown,
          reason: 'Harassment.',
          suspendedAt: (await userRow(t.app, later.user.id)).suspended_at,
        });
      });

      it('reads the list through its index, not a scan of every member', async () => {
        const { sql, parameters } = suspendedMembersQuery(t.app.db, 500).compile();
        const plan = await t.app.db.connection().execute(async (db) => {
          if (dialect === 'sqlite') {
            const { rows } = await db.executeQuery<{ detail: string }>(
              CompiledQuery.raw(`explain query plan ${sql}`, [...parameters]),
            );
            return rows.map((row) => row.detail);
          }
          // Told not to scan, PostgreSQL still scans when no index serves the statement.
          await db.executeQuery(CompiledQuery.raw('set enable_seqscan = off'));
          try {
            const { rows } = await db.executeQuery<{ 'QUERY PLAN': string }>(
              CompiledQuery.raw(`explain ${sql}`, [...parameters]),
            );
            return rows.map((row) => row['QUERY PLAN']);
          } finally {
            await db.executeQuery(CompiledQuery.raw('reset enable_seqscan'));
          }
        });

        // SQLite walks the index in the list's order; PostgreSQL may still sort the few rows it finds.
        expect(plan.join('\n')).toMatch(/users_suspended/);
        expect(plan.join('\n')).not.toMatch(/TEMP B-TREE|Seq Scan/);
      });

      it('lifts a suspension: the member logs in again and leaves the list', async () => {
        const member = await suspendOne('Spam.');
        expect(
          (await postLogin(t.app, { identifier: member.user.username, password: PASSWORD }))
            .statusCode,
        ).toBe(403);

        const response = await lift(moderator, member.user.id);

        expect([response.statusCode, response.json()]).toEqual([200, { ok: true }]);
        expect(
          (await postLogin(t.app, { identifier: member.user.username, password: PASSWORD }))
            .statusCode,
        ).toBe(200);
        expect((await userRow(t.app, member.user.id)).suspended_at).toBeNull();
        expect((await suspendedList(moderator)).body.members.map((one) => one.id)).not.toContain(
          member.user.id,
        );
      });

      it('answers 409 for a member who is not suspended, and 404 for an unknown one', async () => {
        const [free] = await signupMembers(t.app, 1);
        const member = await suspendOne('Spam.');
        expect((await lift(moderator, member.user.id)).statusCode).toBe(200);

        const again = await lift(moderator, member.user.id);
        const never = await lift(moderator, free.user.id);
        const unknown = await lift(moderator, 'no-such-member');

        expect([again.statusCode, again.json()]).toEqual([409, { error: NOT_SUSPENDED }]);
        expect([never.statusCode, never.json()]).toEqual([409, { error: NOT_SUSPENDED }]);
        expect([unknown.statusCode, unknown.json()]).toEqual([404, { error: NO_SUCH_MEMBER }]);
      });

      it('answers 403 to a member, listing and lifting nothing', async () => {
        const member = await suspendOne('Spam.');
        const [other] = await signupMembers(t.app, 1);

        const list = await suspendedList(other);
        const response = await lift(other, member.user.id);

        expect([list.status, list.body]).toEqual([403, { error: MODERATORS_ONLY }]);
        expect([response.statusCode, response.json()]).toEqual([403, { error: MODERATORS_ONLY }]);
        expect((await userRow(t.app, member.user.id)).suspended_at).not.toBeNull();
      });
    });

    describe('remove photo', () => {
      it('deletes the photo as its owner would, resolves its open reports and tells the owner', async () => {
        const [first, second, owner, watcher] = await signupMembers(t.app, 4);
        const photo = await uploadImage(t.app, owner);
        const kept = await uploadImage(t.app, owner);
        const id = await report(t.app, first, 'image', photo.id);
        const other = await report(t.app, second, 'image', photo.id);
        const aboutOwner = await report(t.app, second, 'member', owner.user.id);
        const [watching, ownerTab] = [await connectAs(watcher), await connectAs(owner)];
        await watching.timeout(5_000).emitWithAck('gallery:join', { ownerId: owner.user.id });
        const deleted = nextEvent(watching, 'gallery:image:deleted');
        const told = nextEvent<Notification>(ownerTab, 'notification:new');

        const resolved = await acted(t.app, moderator, id, 'remove-photo');

        expect(resolved).toMatchObject({
          status: 'resolved',
          resolution: 'photo_removed',
          image: null,
          resolvedBy: { id: moderator.user.id },
        });
        expect(await deleted).toEqual({ id: photo.id, ownerId: owner.user.id });
        const notice = `A moderator removed your photo from ${new Date(
          photo.createdAt,
        ).toLocaleDateString('en-GB', {
          day: 'numeric',
          month: 'long',
          year: 'numeric',
          timeZone: 'UTC',
        })} for Spam. Read the rules to see what isn’t allowed.`;
        expect(await told).toMatchObject({
          type: 'system',
          actor: null,
          message: notice,
          link: RULES_PATH,
          read: false,
        });
        expect((await notificationsOf(owner)).notifications[0]).toMatchObject({
          message: notice,
          link: RULES_PATH,
        });
        expect(await reportRow(other)).toMatchObject({
          status: 'resolved',
          resolution: 'photo_removed',
        });
        expect(await reportRow(aboutOwner)).toMatchObject({ status: 'open' });
        const rows = await t.app.db
          .selectFrom('gallery_images')
          .select('id')
          .where('owner_id', '=', owner.user.id)
          .execute();
        expect(rows).toEqual([{ id: kept.id }]);
        await vi.waitFor(async () => {
          expect(await exists(diskPath(t.config.uploadsDir, photo.url))).toBe(false);
          expect(await exists(diskPath(t.config.uploadsDir, photo.thumbnailUrl))).toBe(false);
        });
        expect(await exists(diskPath(t.config.uploadsDir, kept.url))).toBe(true);
      });

      it('names the photo by its caption and gives the reason the moderator chose', async () => {
        const [reporter, owner] = await signupPair(t.app);
        const photo = await uploadImage(t.app, owner);
        expect(
          (await patchImage(t.app, owner, photo.id, { caption: '  Beach   at dawn ' })).statusCode,
        ).toBe(200);
        const id = await report(t.app, reporter, 'image', photo.id, 'spam');

        await acted(t.app, moderator, id, 'remove-photo', { reason: 'nudity' });

        expect((await notificationsOf(owner)).notifications[0]).toMatchObject({
          type: 'system',
          message:
            'A moderator removed your photo “Beach at dawn” for Nudity or sexual content. Read the rules to see what isn’t allowed.',
          link: RULES_PATH,
        });
      });

      it('refuses a reason that is not one of the report reasons, removing nothing', async () => {
        const [reporter, owner] = await signupPair(t.app);
        const photo = await uploadImage(t.app, owner);
        const id = await report(t.app, reporter, 'image', photo.id);

        const response = await act(t.app, moderator, id, 'remove-photo', { reason: 'ugly' });

        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ error: 'Pick a reason.' });
        expect(await reportRow(id)).toMatchObject({ status: 'open' });
        expect((await listGallery(t.app, owner)).map((image) => image.id)).toEqual([photo.id]);
      });

      it('leaves the notices written before it readable as they were', async () => {
        const [owner] = await signupMembers(t.app, 1);
        await t.app.db
          .insertInto('notifications')
          .values({
            recipient_id: owner.user.id,
            type: 'system',
            actor_id: null,
            message: 'A moderator removed one of your photos.',
            link: '/profile',
            request_id: null,
            image_id: null,
            read_at: null,
            created_at: new Date().toISOString(),
          })
          .execute();

        expect((await notificationsOf(owner)).notifications[0]).toMatchObject({
          type: 'system',
          message: 'A moderator removed one of your photos.',
          link: '/profile',
        });
      });

      it('removes the pictures when their first removal fails, as the owner’s delete does', async () => {
        const [reporter, owner] = await signupPair(t.app);
        const photo: GalleryImage = await uploadImage(t.app, owner);
        const id = await report(t.app, reporter, 'image', photo.id);
        const store = t.app.media.store;
        const real = store.remove.bind(store);
        let calls = 0;
        store.remove = (keys) => {
          calls += 1;
          return calls === 1 ? Promise.reject(new Error('EIO: i/o error, unlink')) : real(keys);
        };
        try {
          await acted(t.app, moderator, id, 'remove-photo');
        } finally {
          store.remove = real;
        }

        expect(calls).toBe(2);
        expect(await exists(diskPath(t.config.uploadsDir, photo.url))).toBe(false);
      });

      it('answers 400 to a member report, 409 once the photo is gone or the report resolved', async () => {
        const [reporter, owner] = await signupPair(t.app);
        const photo = await uploadImage(t.app, owner);
        const memberReport = await report(t.app, reporter, 'member', owner.user.id);
        const photoReport = await report(t.app, reporter, 'image', photo.id);

        const notAPhoto = await act(t.app, moderator, memberReport, 'remove-photo');
        await deleteImage(t.app, owner, photo.id);
        const gone = await act(t.app, moderator, photoReport, 'remove-photo');
        await acted(t.app, moderator, photoReport, 'dismiss');
        const resolved = await act(t.app, moderator, photoReport, 'remove-photo');

        expect([notAPhoto.statusCode, notAPhoto.json()]).toEqual([
          400,
          { error: NOT_A_PHOTO_REPORT },
        ]);
        expect([gone.statusCode, gone.json()]).toEqual([409, { error: PHOTO_GONE }]);
        expect([resolved.statusCode, resolved.json()]).toEqual([409, { error: REPORT_RESOLVED }]);
        expect(await reportRow(memberReport)).toMatchObject({ status: 'open' });
      });
    });

    describe('suspend', () => {
      /** A member with two sessions, an open socket and a push device, and reports about them. */
      const reported = async () => {
        const [member, reporter, bystander] = await signupMembers(t.app, 3);
        const second = await loginAs(t.app, member);
        const photo = await uploadImage(t.app, member);
        await subscribeDevice(t.app, member);
        const ids = {
          member: await report(t.app, reporter, 'member', member.user.id),
          photo: await report(t.app, bystander, 'image', photo.id),
          byMember: await report(t.app, member, 'member', bystander.user.id),
        };
        return { member, second, ids };
      };

      it('ends every session, socket and push device, and resolves every open report about them', async () => {
        const { member, second, ids } = await reported();
        const socket = await connectAs(member);
        const disconnected = nextEvent<string>(socket, 'disconnect');
        // Both sessions remembered by this node's cache.
        for (const session of [member, second])
          expect((await getMe(t.app, asBearer(session))).json<AuthResponse>().user.id).toBe(
            member.user.id,
          );

        const suspended = await acted(t.app, moderator, ids.member, 'suspend', {
          reason: '  Repeated spam. ',
        });

        expect(suspended).toMatchObject({
          status: 'resolved',
          resolution: 'member_suspended',
          resolvedBy: { id: moderator.user.id },
        });
        expect(await disconnected).toBe('io server disconnect');
        for (const session of [member, second]) {
          expect((await getMe(t.app, asBearer(session))).json()).toEqual({ user: null });
          const call = await getNotifications(t.app, asBearer(session));
          expect(call.statusCode).toBe(401);
        }
        await expect(connectAs(member)).rejects.toThrow('unauthorized');
        expect(await sessionsOf(t.app, member.user.id)).toEqual([]);
        expect(await pushRowsOf(t.app, member.user.id)).toEqual([]);
        expect(await reportRow(ids.photo)).toMatchObject({
          status: 'resolved',
          resolution: 'member_suspended',
        });
        expect(await reportRow(ids.byMember)).toMatchObject({ status: 'open' });
        expect(await userRow(t.app, member.user.id)).toMatchObject({
          suspension_reason: 'Repeated spam.',
          suspended_at: expect.stringMatching(/^\d{4}-/) as unknown,
        });
      });

      it('tells the reason only to whoever knows the password, and keeps the login backoff', async () => {
        const { member, ids } = await reported();
        await acted(t.app, moderator, ids.member, 'suspend', { reason: 'Spam.' });

        const wrong = await postLogin(t.app, {
          identifier: member.username,
          password: 'Wrong#Pass1',
        });
        const right = await postLogin(t.app, { identifier: member.email, password: PASSWORD });

        expect(wrong.statusCode).toBe(401);
        expect(wrong.json()).toEqual({ error: 'Wrong username/email or password.' });
        expect(right.statusCode).toBe(403);
        expect(right.json()).toEqual({ error: SUSPENDED_LOGIN('Spam.') });
        expect(right.cookies).toEqual([]);
        for (let i = 0; i < 6; i++)
          await postLogin(t.app, { identifier: member.username, password: 'Wrong#Pass1' });
        const waiting = await postLogin(t.app, { identifier: member.username, password: PASSWORD });
        expect(waiting.statusCode).toBe(429);
        expect(waiting.body).not.toContain('Spam.');
      });

      it('refuses a session written after the suspension (a login that raced it)', async () => {
        const { member, ids } = await reported();
        await acted(t.app, moderator, ids.member, 'suspend', { reason: 'Spam.' });

        const late = await issueSession(t.app.sessions, member.user.id, false);

        expect((await getMe(t.app, { authorization: `Bearer ${late.token}` })).json()).toEqual({
          user: null,
        });
      });

      it('lets the member in again once the operator lifts it', async () => {
        const { member, ids } = await reported();
        await acted(t.app, moderator, ids.member, 'suspend', { reason: 'Spam.' });

        await unsuspend({ db: t.app.db }, member.username);

        expect(
          (await postLogin(t.app, { identifier: member.username, password: PASSWORD })).statusCode,
        ).toBe(200);
        expect(await userRow(t.app, member.user.id)).toMatchObject({
          suspended_at: null,
          suspension_reason: '',
        });
      });

      it('suspends a photo’s owner from a photo report', async () => {
        const { member, ids } = await reported();

        await acted(t.app, moderator, ids.photo, 'suspend', { reason: 'Spam.' });

        expect(await reportRow(ids.member)).toMatchObject({ resolution: 'member_suspended' });
        expect((await userRow(t.app, member.user.id)).suspended_at).not.toBeNull();
      });

      it('answers 400 to suspending oneself, and leaves the report open', async () => {
        const [reporter] = await signupMembers(t.app, 1);
        const id = await report(t.app, reporter, 'member', moderator.user.id);

        const response = await act(t.app, moderator, id, 'suspend', { reason: 'Me?' });

        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ error: SUSPEND_SELF });
        expect(await reportRow(id)).toMatchObject({ status: 'open' });
        expect((await userRow(t.app, moderator.user.id)).suspended_at).toBeNull();
      });

      it('answers 409 once the member’s account is gone', async () => {
        const [reporter, member] = await signupPair(t.app);
        const id = await report(t.app, reporter, 'member', member.user.id);
        await t.app.db.deleteFrom('users').where('id', '=', member.user.id).execute();

        const response = await act(t.app, moderator, id, 'suspend', { reason: 'Gone.' });

        expect(response.statusCode).toBe(409);
        expect(response.json()).toEqual({ error: MEMBER_GONE });
      });

      it.each([
        [{}, 'Give a reason the member will see.'],
        [{ reason: '   ' }, 'Give a reason the member will see.'],
        [{ reason: 'r'.repeat(501) }, 'The reason can be at most 500 characters.'],
      ])('answers 400 to %j', async (body, error) => {
        const [reporter, member] = await signupPair(t.app);
        const id = await report(t.app, reporter, 'member', member.user.id);

        const response = await act(t.app, moderator, id, 'suspend', body);

        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ error });
      });

      describe('a moderator', () => {
        /** Another moderator, named as the operator does, and a member report about each. */
        const twoModerators = async () => {
          const [other, reporter] = await signupMembers(t.app, 2);
          await setModerator({ db: t.app.db }, other.username, true);
          return {
            other,
            aboutOther: await report(t.app, reporter, 'member', other.user.id),
            aboutModerator: await report(t.app, reporter, 'member', moderator.user.id),
          };
        };
        const untouched = async (member: Member, reportId: string) => {
          expect(await userRow(t.app, member.user.id)).toMatchObject({
            is_moderator: 1,
            suspended_at: null,
          });
          expect(await reportRow(reportId)).toMatchObject({ status: 'open' });
        };

        it('is not suspended here: 409, and the moderator and the report stay as they were', async () => {
          const { other, aboutOther } = await twoModerators();

          const response = await act(t.app, moderator, aboutOther, 'suspend', { reason: 'Spam.' });

          expect(response.statusCode).toBe(409);
          expect(response.json()).toEqual({ error: SUSPEND_MODERATOR });
          await untouched(other, aboutOther);
          expect(await sessionsOf(t.app, other.user.id)).toHaveLength(1);
          expect((await getReports(t.app, other, {})).statusCode).toBe(200);
        });

        it('suspending the other at the same moment leaves both moderating', async () => {
          // Each round a fresh pair, both requests let through by the route at once.
          for (let round = 0; round < 3; round++) {
            const { other, aboutOther, aboutModerator } = await twoModerators();

            const responses = await Promise.all([
              act(t.app, moderator, aboutOther, 'suspend', { reason: 'You first.' }),
              act(t.app, other, aboutModerator, 'suspend', { reason: 'No, you.' }),
            ]);

            expect(responses.map((response) => response.statusCode)).toEqual([409, 409]);
            await untouched(moderator, aboutModerator);
            await untouched(other, aboutOther);
            await acted(t.app, moderator, aboutModerator, 'dismiss');
          }
        });

        it('is suspended once the operator has removed them', async () => {
          const { other, aboutOther } = await twoModerators();
          await setModerator({ db: t.app.db }, other.username, false);

          const suspended = await acted(t.app, moderator, aboutOther, 'suspend', {
            reason: 'Spam.',
          });

          expect(suspended.resolution).toBe('member_suspended');
          expect((await userRow(t.app, other.user.id)).suspended_at).not.toBeNull();
        });
      });

      describe('by a moderator the operator changed after the route let them through', () => {
        /** The action as the route calls it, with the moderator's row as the route read it. */
        const suspendAs = async (acting: Member, id: string, change: () => Promise<unknown>) => {
          const row = await userRow(t.app, acting.user.id);
          await change();
          return suspend(
            {
              db: t.app.db,
              media: t.app.media,
              galleryEvents: t.app.galleryEvents,
              notifications: t.app.notificationEvents,
              membersChanged: () => Promise.resolve(),
              disconnectMembers: () => undefined,
            },
            row,
            id,
            'Spam.',
          );
        };
        const aModeratorAndAReport = async () => {
          const [acting, reporter, member] = await signupMembers(t.app, 3);
          await setModerator({ db: t.app.db }, acting.username, true);
          return { acting, member, id: await report(t.app, reporter, 'member', member.user.id) };
        };

        it.each([
          ['removed', (acting: Member) => setModerator({ db: t.app.db }, acting.username, false)],
          [
            'suspended',
            (acting: Member) =>
              t.app.db
                .updateTable('users')
                .set({ suspended_at: new Date().toISOString(), suspension_reason: 'Spam.' })
                .where('id', '=', acting.user.id)
                .execute(),
          ],
        ])('refuses one %s a moment before with 403, suspending no one', async (_, change) => {
          const { acting, member, id } = await aModeratorAndAReport();

          await expect(suspendAs(acting, id, () => change(acting))).rejects.toMatchObject({
            statusCode: 403,
            message: MODERATORS_ONLY,
          });

          expect((await userRow(t.app, member.user.id)).suspended_at).toBeNull();
          expect(await reportRow(id)).toMatchObject({ status: 'open' });
        });

        it('refuses to suspend a member the operator made a moderator a moment before', async () => {
          const { member, id } = await aModeratorAndAReport();

          await expect(
            suspendAs(moderator, id, () => setModerator({ db: t.app.db }, member.username, true)),
          ).rejects.toMatchObject({ statusCode: 409, message: SUSPEND_MODERATOR });

          expect((await userRow(t.app, member.user.id)).suspended_at).toBeNull();
        });
      });

      it('answers 409 to a resolved report, suspending no one', async () => {
        const [reporter, member] = await signupPair(t.app);
        const id = await report(t.app, reporter, 'member', member.user.id);
        await acted(t.app, moderator, id, 'dismiss');

        const response = await act(t.app, moderator, id, 'suspend', { reason: 'Late.' });

        expect(response.statusCode).toBe(409);
        expect(response.json()).toEqual({ error: REPORT_RESOLVED });
        expect((await userRow(t.app, member.user.id)).suspended_at).toBeNull();
      });
    });
  });
});
