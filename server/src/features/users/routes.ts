import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { ThemeBody, ThemeResponse, UsernameParams } from '../../../../src/contracts/auth.ts';
import { PublicUserResponse, UserResponse } from '../../../../src/contracts/user.ts';
import { publicProfile, setTheme } from '../auth/service.ts';
import { userRowToPublicUser, userRowToUser } from '../../members/mapping.ts';

/** The member's own record, the theme and other members' profiles: member routes. */
export const userRoutes: FastifyPluginCallbackZod = (app, _options, done) => {
  const deps = app.sessions;

  app.get('/api/users/me', { schema: { response: { 200: UserResponse } } }, (request) => ({
    user: userRowToUser(request.member.user, deps.media.url),
  }));

  app.put(
    '/api/users/theme',
    { schema: { body: ThemeBody, response: { 200: ThemeResponse } } },
    async (request) => ({
      theme: await setTheme(deps, request.member.user, request.body.theme),
    }),
  );

  // docs/decisions.md "Theme path" names this path too; it takes only the theme.
  app.put(
    '/api/users/me',
    { schema: { body: ThemeBody, response: { 200: UserResponse } } },
    async (request) => {
      const { user } = request.member;
      const { theme } = request.body;
      await setTheme(deps, user, theme);
      return { user: { ...userRowToUser(user, deps.media.url), theme } };
    },
  );

  app.get(
    '/api/users/profile/:username',
    { schema: { params: UsernameParams, response: { 200: PublicUserResponse } } },
    async (request) => ({
      user: userRowToPublicUser(
        await publicProfile(deps, request.params.username, request.member.user.id),
        deps.media.url,
      ),
    }),
  );
  done();
};
