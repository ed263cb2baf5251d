import type { preValidationAsyncHookHandler } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import * as endpoints from '../../../../src/contracts/endpoints.ts';
import { MODERATORS_ONLY } from '../../../../src/contracts/safety.ts';
import { Forbidden } from '../../errors.ts';
import { route } from '../../lib/route.ts';
import * as moderation from './service.ts';

const HOUR_MS = 60 * 60 * 1000;

/** Reports (docs/product.md "Reports"): member routes. */
export const reportRoutes: FastifyPluginCallbackZod = (app, _options, done) => {
  const deps: moderation.ReportDeps = { db: app.db };
  // Per member, whatever the outcome of each (docs/decisions.md "Safety"): runs once the member
  // hook has said who is asking and the body is valid. Answers 429 with Retry-After.
  const limitReports = app.rateLimit({
    max: app.config.reportsPerHour,
    timeWindow: HOUR_MS,
    keyGenerator: (request) => `reports:${request.member.user.id}`,
  });

  route(app, endpoints.report, { preHandler: limitReports }, async (request, reply) => {
    await moderation.createReport(deps, request.member.user, request.body);
    return reply.status(201).send({ ok: true });
  });

  route(app, endpoints.myOpenReports, {}, async (request) =>
    moderation.openReportsOf(deps, request.member.user),
  );
  done();
};

/** What moderators see and do (docs/product.md "Moderation"): member routes, moderators only. */
export const moderationRoutes: FastifyPluginCallbackZod = (app, _options, done) => {
  const deps: moderation.ModerationDeps = {
    db: app.db,
    media: app.media,
    galleryEvents: app.galleryEvents,
    notifications: app.notificationEvents,
    membersChanged: async (userIds) => {
      await app.sessions.sessionMemory?.membersChanged(userIds);
    },
    disconnectMembers: (userIds) => app.realtime.disconnectMembers(userIds),
  };

  // After the member hook, before validation: a member learns nothing of these calls' shapes.
  // Read from the database, not the session's copy, so `npm run moderator -- remove` holds at once.
  const requireModerator: preValidationAsyncHookHandler = async (request) => {
    if (!(await moderation.isModerator(deps, request.member.user.id)))
      throw new Forbidden(MODERATORS_ONLY);
  };
  app.addHook('preValidation', requireModerator);

  route(app, endpoints.moderationReports, {}, async (request) =>
    moderation.reportsPage(deps, request.query.status, request.query.before),
  );

  route(app, endpoints.moderationDismiss, {}, async (request) => ({
    report: await moderation.dismiss(deps, request.member.user, request.params.id),
  }));

  route(app, endpoints.moderationRemovePhoto, {}, async (request) => ({
    report: await moderation.removePhoto(
      deps,
      request.member.user,
      request.params.id,
      request.body.reason,
    ),
  }));

  route(app, endpoints.moderationReopen, {}, async (request) => ({
    report: await moderation.reopen(deps, request.params.id),
  }));

  route(app, endpoints.moderationSuspended, {}, async () => moderation.suspendedList(deps));

  route(app, endpoints.moderationLift, {}, async (request) => {
    await moderation.liftSuspension(deps, request.params.userId);
    return { ok: true as const };
  });

  route(app, endpoints.moderationSuspend, {}, async (request) => ({
    report: await moderation.suspend(
      deps,
      request.member.user,
      request.params.id,
      request.body.reason,
    ),
  }));
  done();
};
