import type { FastifyInstance } from 'fastify';
import {
  ForgotQuestionBody,
  ForgotResetBody,
  LoginBody,
  PasswordChangeBody,
  ProfilePatchBody,
  UsernameQuery,
} from '../../../../src/contracts/auth.ts';
import { parseInterests } from '../../../../src/contracts/interests.ts';
import type { Config } from '../../config.ts';
import { Invalid, Unauthorized } from '../../errors.ts';
import { readForm } from '../../lib/multipart.ts';
import { clearSessionCookie, setSessionCookie } from '../../plugins/auth.ts';
import { userRowToUser } from '../../members/mapping.ts';
import * as auth from './service.ts';

export interface AuthRouteOptions {
  deps: auth.AuthDeps;
  config: Config;
}

export function authRoutes(app: FastifyInstance, { deps, config }: AuthRouteOptions) {
  const { max, windowMs } = config.authRateLimit;
  const strict = { rateLimit: { max, timeWindow: windowMs } };
  // Typing a username checks it after each pause, so the check gets more room than a login.
  const relaxed = { rateLimit: { max: max * 6, timeWindow: windowMs } };

  app.post('/api/auth/signup', { config: strict }, async (request, reply) => {
    if (!request.isMultipart()) throw new Invalid('Send this form as multipart/form-data.');
    const { fields, file } = await readForm(request, 'profilePic');
    const field = (name: string) => fields[name] ?? '';
    const result = await auth.signup(
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
      field('remember') === 'true',
    );
    setSessionCookie(reply, config, result.session);
    return reply.status(201).send({ user: result.user, token: result.session.token });
  });

  app.post('/api/auth/login', { config: strict }, async (request, reply) => {
    const body = LoginBody.parse(request.body ?? {});
    const result = await auth.login(deps, body.identifier, body.password, body.remember);
    setSessionCookie(reply, config, result.session);
    return { user: result.user, token: result.session.token };
  });

  app.post('/api/auth/logout', async (request, reply) => {
    const current = await request.auth();
    if (current) {
      await auth.logout(deps, current.sessionId);
      app.realtime.disconnectSessions([current.sessionId]);
    }
    clearSessionCookie(reply, config);
    return { ok: true };
  });

  app.get('/api/auth/me', async (request) => {
    const { user } = await request.member();
    return { user: userRowToUser(user, deps.media.url) };
  });

  /** Hands a cookie-authenticated page the same token for use as a bearer. */
  app.get('/api/auth/token-bridge', async (request) => {
    const token = request.cookies[config.session.cookie];
    if (!token || !(await auth.authenticate(deps, token))) throw new Unauthorized();
    return { token };
  });

  app.get('/api/check-username', { config: relaxed }, async (request) => {
    const { username } = UsernameQuery.parse(request.query);
    return { available: await auth.isUsernameAvailable(deps, username) };
  });

  app.get('/api/auth/check-username', { config: relaxed }, async (request) => {
    const { user } = await request.member();
    const { username } = UsernameQuery.parse(request.query);
    return auth.checkUsernameFor(deps, user, username);
  });

  app.patch('/api/auth/profile', async (request) => {
    const { user } = await request.member();
    let raw: unknown = request.body;
    let file: Buffer | undefined;
    if (request.isMultipart()) {
      const form = await readForm(request, 'profilePic');
      raw = form.fields;
      file = form.file;
    }
    const body = ProfilePatchBody.parse(raw ?? {});
    const { interests, ...rest } = body;
    const updated = await auth.updateProfile(
      deps,
      user,
      { ...rest, interests: interests === undefined ? undefined : parseInterests(interests) },
      file,
    );
    return { user: updated };
  });

  app.patch('/api/auth/password', async (request) => {
    const current = await request.member();
    const body = PasswordChangeBody.parse(request.body ?? {});
    const revoked = await auth.changePassword(
      deps,
      current,
      body.currentPassword,
      body.newPassword,
    );
    app.realtime.disconnectSessions(revoked);
    return { ok: true };
  });

  app.post('/api/auth/forgot-password/question', { config: strict }, async (request) => {
    const body = ForgotQuestionBody.parse(request.body ?? {});
    return { question: await auth.securityQuestionFor(deps, body.identifier) };
  });

  app.post('/api/auth/forgot-password/reset', { config: strict }, async (request, reply) => {
    const body = ForgotResetBody.parse(request.body ?? {});
    const revoked = await auth.resetPassword(deps, body.identifier, body.answer, body.newPassword);
    app.realtime.disconnectSessions(revoked);
    clearSessionCookie(reply, config);
    return { ok: true };
  });
}
