import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import * as endpoints from '../../../../src/contracts/endpoints.ts';
import { publicProfile, setTheme } from '../auth/service.ts';
import { route } from '../../lib/route.ts';
import { userRowToPublicUser, userRowToUser } from '../../members/mapping.ts';

/** The member's own record, the theme and other members' profiles: member routes. */
export const userRoutes: FastifyPluginCallbackZod = (app, _options, done) => {
  const deps = app.sessions;

  route(app, endpoints.usersMe, {}, (request) => ({
    user: userRowToUser(request.member.user, deps.media.url),
  }));

  route(app, endpoints.themeSave, {}, async (request) => ({
    theme: await setTheme(deps, request.member.user, request.body.theme),
  }));

  // docs/decisions.md "Theme path" names this path too; it takes only the theme.
  route(app, endpoints.themeSaveMe, {}, async (request) => {
    const { user } = request.member;
    const { theme } = request.body;
    await setTheme(deps, user, theme);
    return { user: { ...userRowToUser(user, deps.media.url), theme } };
  });

  route(app, endpoints.profile, {}, async (request) => ({
    user: userRowToPublicUser(
      await publicProfile(deps, request.params.username, request.member.user.id),
      deps.media.url,
    ),
  }));
  done();
};
