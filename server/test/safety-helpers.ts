/** Helpers of the safety tests: blocks, reports and moderation through the real endpoints. */
import type { FastifyInstance } from 'fastify';
import type { ModerationReport, ModerationReportPage } from '../../src/contracts/safety.ts';
import { type Member, asBearer, signupMembers } from './factories.ts';

export function postBlock(app: FastifyInstance, member: Member, userId: string) {
  return app.inject({
    method: 'POST',
    url: '/api/users/blocks',
    headers: asBearer(member),
    payload: { userId },
  });
}

/** `member` blocks `other`, failing loudly unless the server agreed. */
export async function block(app: FastifyInstance, member: Member, other: Member): Promise<void> {
  const response = await postBlock(app, member, other.user.id);
  if (response.statusCode !== 200)
    throw new Error(`block answered ${response.statusCode}: ${response.body}`);
}

export async function unblock(app: FastifyInstance, member: Member, other: Member): Promise<void> {
  const response = await app.inject({
    method: 'DELETE',
    url: `/api/users/blocks/${encodeURIComponent(other.user.id)}`,
    headers: asBearer(member),
  });
  if (response.statusCode !== 200)
    throw new Error(`unblock answered ${response.statusCode}: ${response.body}`);
}

export function postReport(app: FastifyInstance, member: Member, body: Record<string, unknown>) {
  return app.inject({
    method: 'POST',
    url: '/api/reports',
    headers: asBearer(member),
    payload: body,
  });
}

/** `member` reports a member or a photo; answers the new report's id (read from the database). */
export async function report(
  app: FastifyInstance,
  member: Member,
  kind: 'image' | 'member',
  targetId: string,
  reason = 'spam',
): Promise<string> {
  const response = await postReport(app, member, { kind, targetId, reason, note: 'See this.' });
  if (response.statusCode !== 201)
    throw new Error(`report answered ${response.statusCode}: ${response.body}`);
  const row = await app.db
    .selectFrom('reports')
    .select('id')
    .where('reporter_id', '=', member.user.id)
    .where('target_kind', '=', kind)
    .where('target_id', '=', targetId)
    .where('status', '=', 'open')
    .executeTakeFirstOrThrow();
  return String(row.id);
}

export function getReports(app: FastifyInstance, member: Member, query: Record<string, string>) {
  return app.inject({
    method: 'GET',
    url: '/api/moderation/reports',
    query,
    headers: asBearer(member),
  });
}

export async function reportsPage(
  app: FastifyInstance,
  moderator: Member,
  query: Record<string, string> = {},
): Promise<ModerationReportPage> {
  const response = await getReports(app, moderator, query);
  if (response.statusCode !== 200)
    throw new Error(`reports answered ${response.statusCode}: ${response.body}`);
  return response.json<ModerationReportPage>();
}

export type Action = 'dismiss' | 'remove-photo' | 'suspend';

export function act(
  app: FastifyInstance,
  moderator: Member,
  id: string,
  action: Action,
  body?: Record<string, unknown>,
) {
  return app.inject({
    method: 'POST',
    url: `/api/moderation/reports/${id}/${action}`,
    headers: asBearer(moderator),
    ...(body ? { payload: body } : {}),
  });
}

/** A moderation action that must succeed; answers the report as it now stands. */
export async function acted(
  app: FastifyInstance,
  moderator: Member,
  id: string,
  action: Action,
  body?: Record<string, unknown>,
): Promise<ModerationReport> {
  const response = await act(app, moderator, id, action, body);
  if (response.statusCode !== 200)
    throw new Error(`${action} answered ${response.statusCode}: ${response.body}`);
  return response.json<{ report: ModerationReport }>().report;
}

/**
 * The app's moderator: the first member signed up on its fresh database is one. Call it before
 * any other signup of the file.
 */
export async function firstMember(app: FastifyInstance): Promise<Member> {
  const [member] = await signupMembers(app, 1);
  if (!member.user.isModerator) throw new Error('the first member of this app is not a moderator');
  return member;
}

export function userRow(app: FastifyInstance, id: string) {
  return app.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}
