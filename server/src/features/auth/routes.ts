import fs from 'node:fs/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type FastifyPluginCallbackZod, serializerCompiler } from 'fastify-type-provider-zod';
import {
  CheckUsernameResponse,
  ForgotQuestionBody,
  ForgotResetBody,
  LoginBody,
  PasswordChangeBody,
  ProfilePatchBody,
  SecurityQuestionResponse,
  TokenResponse,
  UsernameAvailableResponse,
  UsernameQuery,
} from '../../../../src/contracts/auth.ts';
import { OkResponse } from '../../../../src/contracts/http.ts';
import { parseInterests } from '../../../../src/contracts/interests.ts';
import { AuthResponse, MeResponse, UserResponse } from '../../../../src/contracts/user.ts';
import { Invalid, Unauthorized } from '../../errors.ts';
import { streamForm } from '../../lib/multipart.ts';
import { clearSessionCookie, setSessionCookie } from '../../plugins/auth.ts';
import { userRowToUser } from '../../members/mapping.ts';
import * as auth from './service.ts';

const rateLimits = (config: { max: number; windowMs: number }) => ({
  strict: { rateLimit: { max: config.max, timeWindow: config.windowMs } },
  // Typing a username checks it after each pause, so the check gets more room than a login.
  relaxed: { rateLimit: { max: config.max * 6, timeWindow: config.windowMs } },
});

/**
 * A form with a profile picture: one of `who`'s upload places is taken before the body is read,
 * the picture streams to a temporary file in the incoming folder (never whole in memory), and
 * both are given back once `use` is done, whatever its outcome.
 */
async function withAvatarForm<T>(
  app: FastifyInstance,
  who: string,
  request: FastifyRequest,
  use: (fields: Record<string, string>, file: string | undefined) => Promise<T>,
): Promise<T> {
  const release = await app.uploads.begin(who);
  try {
    const form = await streamForm(request, 'profilePic', app.incomingDir);
    try {
      return await use(form.fields, form.filePath);
    } finally {
      if (form.filePath) await fs.rm(form.filePath, { force: true });
    }
  } finally {
    await release();
  }
}

/** What the account calls need: sessions, announcements, the node's attempt counts, the picture queue. */
function accountDeps(app: FastifyInstance): auth.GuardedDeps & auth.AvatarDeps {
  return {
    ...app.sessions,
    notifications: app.notificationEvents,
    attempts: app.attempts,
    images: app.images,
  };
}

/** Signing up, in and out, the session check and the password reset: open to the signed out. */
export const authPublicRoutes: FastifyPluginCallbackZod = (app, _options, done) => {
  const { config } = app;
  const deps = accountDeps(app);
  const { strict, relaxed } = rateLimits(config.authRateLimit);

  app.post(
    '/api/auth/signup',
    {
      config: strict,
      schema: {
        summary: 'Sign up (multipart/form-data with the profile picture as profilePic)',
        consumes: ['multipart/form-data'],
        response: { 201: AuthResponse },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw new Invalid('Send this form as multipart/form-data.');
      // No member yet: the client address holds the upload places.
      const result = await withAvatarForm(app, `address:${request.ip}`, request, (fields, file) => {
        const field = (name: string) => fields[name] ?? '';
        return auth.signup(
          deps,
          {
            username: field('username'),
            email: field('email'),
            password: field('password'),
            firstName: field('firstName'),
            lastName: field('lastName'),
            birthday: field('birthday'),
            referral: field('referral'),
            interests: parseInterests(field('interests')),
            securityQuestion: field('securityQuestion'),
            securityAnswer: field('securityAnswer'),
            favoriteQuote: field('favoriteQuote'),
          },
          file,
          { remember: field('remember') === 'true' },
        );
      });
      setSessionCookie(reply, config, result.session);
      return reply.status(201).send({ user: result.user, token: result.session.token });
    },
  );

  app.post(
    '/api/auth/login',
    { config: strict, schema: { body: LoginBody, response: { 200: AuthResponse } } },
    async (request, reply) => {
      const { identifier, password, remember } = request.body;
      const result = await auth.login(deps, identifier, password, remember);
      setSessionCookie(reply, config, result.session);
      return { user: result.user, token: result.session.token };
    },
  );

  app.post(
    '/api/auth/logout',
    { schema: { response: { 200: OkResponse } } },
    async (request, reply) => {
      const current = await request.auth();
      if (current) {
        await auth.logout(deps, current.sessionId);
        app.realtime.disconnectSessions([current.sessionId]);
      }
      clearSessionCookie(reply, config);
      return { ok: true as const };
    },
  );

  // The answer for a remembered session, serialised with the contract once: the cache hands out
  // the same object until the session or the member changes (docs/decisions.md "Session cache").
  const serializeMe = serializerCompiler({
    schema: MeResponse,
    method: 'GET',
    url: '/api/auth/me',
    httpStatus: '200',
  }) as (data: unknown) => string;
  const meBodies = new WeakMap<auth.Authenticated, string>();
  const signedOut = serializeMe({ user: null });

  // docs/decisions.md "Signed-out session check": being signed out is an answer, not an error.
  app.get(
    '/api/auth/me',
    // Its answer is smaller than anything worth compressing: no compression hooks.
    { compress: false, schema: { response: { 200: MeResponse } } },
    async (request, reply) => {
      const current = await request.auth();
      let body = signedOut;
      if (current) {
        body = meBodies.get(current) ?? '';
        if (!body) {
          body = serializeMe({ user: userRowToUser(current.user, deps.media.url) });
          meBodies.set(current, body);
        }
      }
      // Already serialised: sent as it is, past the route's typed reply.
      return (reply as FastifyReply).type('application/json; charset=utf-8').send(body);
    },
  );

  /** Hands a cookie-authenticated page the same token for use as a bearer. */
  app.get(
    '/api/auth/token-bridge',
    { schema: { response: { 200: TokenResponse } } },
    async (request) => {
      const token = request.cookies[config.session.cookie];
      if (!token || !(await auth.authenticate(deps, token))) throw new Unauthorized();
      return { token };
    },
  );

  app.get(
    '/api/check-username',
    {
      config: relaxed,
      schema: { querystring: UsernameQuery, response: { 200: UsernameAvailableResponse } },
    },
    async (request) => ({
      available: await auth.isUsernameAvailable(deps, request.query.username),
    }),
  );

  app.post(
    '/api/auth/forgot-password/question',
    {
      config: strict,
      schema: { body: ForgotQuestionBody, response: { 200: SecurityQuestionResponse } },
    },
    async (request) => ({
      question: await auth.securityQuestionFor(deps, request.body.identifier),
    }),
  );

  app.post(
    '/api/auth/forgot-password/reset',
    { config: strict, schema: { body: ForgotResetBody, response: { 200: OkResponse } } },
    async (request, reply) => {
      const { identifier, answer, newPassword } = request.body;
      const revoked = await auth.resetPassword(deps, identifier, answer, newPassword);
      app.realtime.disconnectSessions(revoked);
      clearSessionCookie(reply, config);
      return { ok: true as const };
    },
  );
  done();
};

/** The member's own account: registered inside the member context (`requireMember`). */
export const authMemberRoutes: FastifyPluginCallbackZod = (app, _options, done) => {
  const deps = accountDeps(app);
  const { relaxed } = rateLimits(app.config.authRateLimit);

  app.get(
    '/api/auth/check-username',
    {
      config: relaxed,
      schema: { querystring: UsernameQuery, response: { 200: CheckUsernameResponse } },
    },
    async (request) => auth.checkUsernameFor(deps, request.member.user, request.query.username),
  );

  app.patch(
    '/api/auth/profile',
    {
      schema: {
        summary: 'Update the profile (JSON, or multipart/form-data with a new profilePic)',
        body: ProfilePatchBody,
        response: { 200: UserResponse },
      },
    },
    async (request) => {
      const update = (body: ProfilePatchBody, file?: string) => {
        const { interests, ...rest } = body;
        return auth.updateProfile(
          deps,
          request.member.user,
          { ...rest, interests: interests === undefined ? undefined : parseInterests(interests) },
          file,
        );
      };
      const updated = request.isMultipart()
        ? await withAvatarForm(app, `member:${request.member.user.id}`, request, (fields, file) =>
            update(ProfilePatchBody.parse(fields), file),
          )
        : await update(request.body);
      return { user: updated };
    },
  );

  app.patch(
    '/api/auth/password',
    { schema: { body: PasswordChangeBody, response: { 200: OkResponse } } },
    async (request) => {
      const revoked = await auth.changePassword(
        deps,
        request.member,
        request.body.currentPassword,
        request.body.newPassword,
      );
      app.realtime.disconnectSessions(revoked);
      return { ok: true as const };
    },
  );
  done();
};
