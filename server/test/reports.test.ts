/**
 * Reports (docs/product.md "Reports"): a photo or a member, one open report per reporter and
 * item, never oneself, never what one cannot see, and a limit per member.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  NO_SUCH_MEMBER,
  NO_SUCH_PHOTO,
  REPORT_DUPLICATE,
  REPORT_NOTE_MAX,
  REPORT_REASONS,
  REPORT_SELF,
} from '../../src/contracts/safety.ts';
import { deleteImage, uploadImage } from './gallery-helpers.ts';
import {
  type Member,
  ORIGIN,
  forEachApp,
  forEachDialect,
  signupMembers,
  signupPair,
  useTestApp,
} from './helpers.ts';
import { asBearer } from './factories.ts';
import { block, postReport, report } from './safety-helpers.ts';

const reportsOf = (t: { app: FastifyInstance }, reporter: Member) =>
  t.app.db
    .selectFrom('reports')
    .selectAll()
    .where('reporter_id', '=', reporter.user.id)
    .orderBy('id')
    .execute();

forEachApp((t) => {
  describe('POST /api/reports', () => {
    it('keeps a photo report, naming the photo’s owner, and answers 201 {ok: true}', async () => {
      const [reporter, owner] = await signupPair(t.app);
      const photo = await uploadImage(t.app, owner);

      const response = await postReport(t.app, reporter, {
        kind: 'image',
        targetId: photo.id,
        reason: 'nudity',
        note: '  Not for here. ',
      });

      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({ ok: true });
      expect(await reportsOf(t, reporter)).toEqual([
        expect.objectContaining({
          target_kind: 'image',
          target_id: photo.id,
          target_user_id: owner.user.id,
          reason: 'nudity',
          note: 'Not for here.',
          status: 'open',
          resolution: null,
        }),
      ]);
    });

    it.each(REPORT_REASONS)(
      'keeps a member report for the reason %s, without a note',
      async (reason) => {
        const [reporter, member] = await signupPair(t.app);

        const response = await postReport(t.app, reporter, {
          kind: 'member',
          targetId: member.user.id,
          reason,
        });

        expect(response.statusCode).toBe(201);
        expect(await reportsOf(t, reporter)).toEqual([
          expect.objectContaining({ target_user_id: member.user.id, reason, note: '' }),
        ]);
      },
    );

    it('answers 409 to a second open report of the same item, and takes one again once it is resolved', async () => {
      const [reporter, member] = await signupPair(t.app);
      const body = { kind: 'member', targetId: member.user.id, reason: 'spam' };
      expect((await postReport(t.app, reporter, body)).statusCode).toBe(201);

      const again = await postReport(t.app, reporter, { ...body, reason: 'harassment' });

      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ error: REPORT_DUPLICATE });
      await t.app.db
        .updateTable('reports')
        .set({ status: 'resolved', resolution: 'dismissed' })
        .where('reporter_id', '=', reporter.user.id)
        .execute();
      expect((await postReport(t.app, reporter, body)).statusCode).toBe(201);
    });

    it('keeps one of several identical reports sent at once', async () => {
      const [reporter, owner] = await signupPair(t.app);
      const photo = await uploadImage(t.app, owner);

      const responses = await Promise.all(
        Array.from({ length: 5 }, () =>
          postReport(t.app, reporter, { kind: 'image', targetId: photo.id, reason: 'spam' }),
        ),
      );

      expect(responses.map((response) => response.statusCode).sort()).toEqual([
        201, 409, 409, 409, 409,
      ]);
      expect(await reportsOf(t, reporter)).toHaveLength(1);
    });

    it('lets two members each report the same photo', async () => {
      const [a, b, owner] = await signupMembers(t.app, 3);
      const photo = await uploadImage(t.app, owner);

      for (const reporter of [a, b]) {
        const response = await postReport(t.app, reporter, {
          kind: 'image',
          targetId: photo.id,
          reason: 'spam',
        });
        expect(response.statusCode).toBe(201);
      }
    });

    it('answers 400 to reporting oneself or one’s own photo', async () => {
      const [me] = await signupMembers(t.app, 1);
      const photo = await uploadImage(t.app, me);

      for (const body of [
        { kind: 'member', targetId: me.user.id, reason: 'spam' },
        { kind: 'image', targetId: photo.id, reason: 'spam' },
      ]) {
        const response = await postReport(t.app, me, body);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ error: REPORT_SELF });
      }
      expect(await reportsOf(t, me)).toEqual([]);
    });

    it('answers 404 to a photo or member that does not exist, or no longer does', async () => {
      const [reporter, owner] = await signupPair(t.app);
      const photo = await uploadImage(t.app, owner);
      await deleteImage(t.app, owner, photo.id);

      for (const [body, error] of [
        [{ kind: 'image', targetId: photo.id, reason: 'spam' }, NO_SUCH_PHOTO],
        [{ kind: 'image', targetId: randomUUID(), reason: 'spam' }, NO_SUCH_PHOTO],
        [{ kind: 'member', targetId: randomUUID(), reason: 'spam' }, NO_SUCH_MEMBER],
        // A member id is not a photo, nor a photo id a member.
        [{ kind: 'image', targetId: owner.user.id, reason: 'spam' }, NO_SUCH_PHOTO],
      ] as const) {
        const response = await postReport(t.app, reporter, body);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ error });
      }
    });

    it.each(['the blocker', 'the blocked member'] as const)(
      'answers 404 when %s reports the other or their photo',
      async (who) => {
        const [blocker, blocked] = await signupPair(t.app);
        const photos = [await uploadImage(t.app, blocker), await uploadImage(t.app, blocked)];
        await block(t.app, blocker, blocked);
        const [reporter, other, photo] =
          who === 'the blocker' ? [blocker, blocked, photos[1]] : [blocked, blocker, photos[0]];

        const member = await postReport(t.app, reporter, {
          kind: 'member',
          targetId: other.user.id,
          reason: 'harassment',
        });
        const image = await postReport(t.app, reporter, {
          kind: 'image',
          targetId: photo?.id,
          reason: 'harassment',
        });

        expect([member.statusCode, image.statusCode]).toEqual([404, 404]);
        expect(await reportsOf(t, reporter)).toEqual([]);
      },
    );

    it.each([
      [
        { kind: 'video', targetId: 'x', reason: 'spam' },
        'Say whether a photo or a member is reported.',
      ],
      [{ kind: 'member', targetId: 'x', reason: 'boring' }, 'Pick a reason.'],
      [{ kind: 'member', targetId: '', reason: 'spam' }, 'Say which member.'],
      [
        { kind: 'member', targetId: 'x', reason: 'spam', note: 'n'.repeat(REPORT_NOTE_MAX + 1) },
        `The note can be at most ${REPORT_NOTE_MAX} characters.`,
      ],
    ])('answers 400 to %j', async (body, error) => {
      const [reporter] = await signupMembers(t.app, 1);

      const response = await postReport(t.app, reporter, body);

      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error });
    });

    it('answers 401 when signed out', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/reports',
        headers: { origin: ORIGIN },
        payload: { kind: 'member', targetId: 'x', reason: 'spam' },
      });

      expect(response.statusCode).toBe(401);
    });
  });

  describe('GET /api/reports/mine', () => {
    const mine = (member: Member) =>
      t.app.inject({ method: 'GET', url: '/api/reports/mine', headers: asBearer(member) });

    it("lists what the member reported that is still open, newest first, and no one else's", async () => {
      const [reporter, owner, other] = await signupMembers(t.app, 3);
      const photo = await uploadImage(t.app, owner);
      await report(t.app, reporter, 'member', owner.user.id);
      await report(t.app, reporter, 'image', photo.id);
      const decided = await report(t.app, reporter, 'member', other.user.id);
      await report(t.app, other, 'member', owner.user.id);
      await t.app.db
        .updateTable('reports')
        .set({ status: 'resolved' })
        .where('id', '=', Number(decided))
        .execute();

      const response = await mine(reporter);

      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toContain('no-store');
      expect(response.json()).toEqual({
        reports: [
          { kind: 'image', targetId: photo.id },
          { kind: 'member', targetId: owner.user.id },
        ],
      });
      expect((await mine(owner)).json()).toEqual({ reports: [] });
    });

    it('answers 401 when signed out', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/reports/mine' });

      expect(response.statusCode).toBe(401);
    });
  });
});

forEachDialect((dialect) => {
  describe('the limit per member (REPORTS_PER_HOUR)', () => {
    const t = useTestApp(dialect, { REPORTS_PER_HOUR: '3' });

    it('answers 429 with Retry-After past the limit, for that member only', async () => {
      const [reporter, other, ...targets] = await signupMembers(t.app, 6);
      const send = (from: Member, target: Member) =>
        postReport(t.app, from, { kind: 'member', targetId: target.user.id, reason: 'spam' });

      const statuses = [];
      for (const target of targets) statuses.push((await send(reporter, target)).statusCode);
      const refused = await send(reporter, other);

      expect(statuses).toEqual([201, 201, 201, 429]);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json<{ error: string }>().error).toMatch(
        /^Too many attempts\. Try again in \d+ seconds\.$/,
      );
      expect((await send(other, reporter)).statusCode).toBe(201);
    });
  });
});
