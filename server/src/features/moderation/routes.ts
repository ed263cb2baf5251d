import type { preValidationAsyncHookHandler } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { OkResponse } from '../../../../src/contracts/http.ts';
import {
  MODERATORS_ONLY,
  ModerationReportPage,
  ModerationReportResponse,
  ModerationReportsQuery,
  ReportBody,
  ReportParams,
  SuspendBody,
} from '../../../../src/contracts/safety.ts';
import { Forbidden } from '../../errors.ts';
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

  app.post(
    '/api/reports',
    { preHandler: limitReports, schema: { body: ReportBody, response: { 201: OkResponse } } },
    async (request, reply) => {
      await moderation.createReport(deps, request.member.user, request.body);
      return reply.status(201).send({ ok: true });
    },
  );
  done();
};

/** What moderators see and do (docs/product.md "Moderation"): member routes, moderators only. */
export const moderationRoutes: FastifyPluginCallbackZod = (app, _options, done) => {
  const deps: moderation.ModerationDeps = {
    db: app.db,
    media: app.media,
    galleryEvents: app.realtime.galleryEvents,
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

  app.get(
    '/api/moderation/reports',
    { schema: { querystring: ModerationReportsQuery, response: { 200: ModerationReportPage } } },
    async (request) => moderation.reportsPage(deps, request.query.status, request.query.before),
  );

  app.post(
    '/api/moderation/reports/:id/dismiss',
    { schema: { params: ReportParams, response: { 200: ModerationReportResponse } } },
    async (request) => ({
      report: await moderation.dismiss(deps, request.member.user, request.params.id),
    }),
  );

  app.post(
    '/api/moderation/reports/:id/remove-photo',
    { schema: { params: ReportParams, response: { 200: ModerationReportResponse } } },
    async (request) => ({
      report: await moderation.removePhoto(deps, request.member.user, request.params.id),
    }),
  );

  app.post(
    '/api/moderation/reports/:id/suspend',
    {
      schema: {
        params: ReportParams,
        body: SuspendBody,
        response: { 200: ModerationReportResponse },
      },
    },
    async (request) => ({
      report: await moderation.suspend(
        deps,
        request.member.user,
        request.params.id,
        request.body.reason,
      ),
    }),
  );
  done();
};
