import fs from 'node:fs/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type FastifyPluginCallbackZod, serializerCompiler } from 'fastify-type-provider-zod';
import { ProfilePatchBody } from '../../../../src/contracts/auth.ts';
import * as endpoints from '../../../../src/contracts/endpoints.ts';
import { parseInterests } from '../../../../src/contracts/interests.ts';
import { Invalid, Unauthorized } from '../../errors.ts';
import { streamForm } from '../../lib/multipart.ts';
import { route } from '../../lib/route.ts';
import { clearSessionCookie, setSessionCookie } from '../../lib/sessionCookie.ts';
import { type Authenticated, authenticate } from '../../members/sessions.ts';
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

  route(app, endpoints.signup, { config: strict }, async (request, reply) => {
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
  });

  route(app, endpoints.login, { config: strict }, async (request, reply) => {
    const { identifier, password, remember } = request.body;
    const result = await auth.login(deps, identifier, password, remember);
    setSessionCookie(reply, config, result.session);
    return { user: result.user, token: result.session.token };
  });

  route(app, endpoints.logout, {}, async (request, reply) => {
    const current = await request.auth();
    if (current) {
      await auth.logout(deps, current.sessionId);
      app.realtime.disconnectSessions([current.sessionId]);
    }
    clearSessionCookie(reply, config);
    return { ok: true as const };
  });

  // The answer for a remembered session, serialised with the contract once: the cache hands out
  // the same object until the session or the member changes (docs/decisions.md "Session cache").
  const serializeMe = serializerCompiler({
    schema: endpoints.me.answer,
    method: endpoints.me.method,
    url: endpoints.me.path,
    httpStatus: '200',
  }) as (data: unknown) => string;
  const meBodies = new WeakMap<Authenticated, string>();
  const signedOut = serializeMe({ user: null });

  // docs/decisions.md "Signed-out session check": being signed out is an answer, not an error.
  // Its answer is smaller than anything worth compressing: no compression hooks.
  route(app, endpoints.me, { compress: false }, async (request, reply) => {
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
  });

  /** Hands a cookie-authenticated page the same token for use as a bearer. */
  route(app, endpoints.tokenBridge, {}, async (request) => {
    const token = request.cookies[config.session.cookie];
    if (!token || !(await authenticate(deps, token))) throw new Unauthorized();
    return { token };
  });

  route(app, endpoints.usernameAvailable, { config: relaxed }, async (request) => ({
    available: await auth.isUsernameAvailable(deps, request.query.username),
  }));

  route(app, endpoints.forgotQuestion, { config: strict }, async (request) => ({
    question: await auth.securityQuestionFor(deps, request.body.identifier),
  }));

  route(app, endpoints.forgotReset, { config: strict }, async (request, reply) => {
    const { identifier, answer, newPassword } = request.body;
    const revoked = await auth.resetPassword(deps, identifier, answer, newPassword);
    app.realtime.disconnectSessions(revoked);
    clearSessionCookie(reply, config);
    return { ok: true as const };
  });
  done();
};

/** The member's own account: registered inside the member context (`requireMember`). */
export const authMemberRoutes: FastifyPluginCallbackZod = (app, _options, done) => {
  const deps = accountDeps(app);
  const { relaxed } = rateLimits(app.config.authRateLimit);

  route(app, endpoints.checkUsername, { config: relaxed }, async (request) =>
    auth.checkUsernameFor(deps, request.member.user, request.query.username),
  );

  route(app, endpoints.profileUpdate, {}, async (request) => {
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
  });

  route(app, endpoints.passwordChange, {}, async (request) => {
    const revoked = await auth.changePassword(
      deps,
      request.member,
      request.body.currentPassword,
      request.body.newPassword,
    );
    app.realtime.disconnectSessions(revoked);
    return { ok: true as const };
  });
  done();
};
