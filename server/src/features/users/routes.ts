import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ThemeBody } from '../../../../src/contracts/auth.ts';
import { type AuthDeps, publicProfile, setTheme } from '../auth/service.ts';
import { userRowToPublicUser, userRowToUser } from '../../members/mapping.ts';

const UsernameParams = z.object({ username: z.string().min(1).max(200) });

export function userRoutes(app: FastifyInstance, { deps }: { deps: AuthDeps }) {
  app.get('/api/users/me', async (request) => {
    const { user } = await request.member();
    return { user: userRowToUser(user, deps.media.url) };
  });

  app.put('/api/users/theme', async (request) => {
    const { user } = await request.member();
    const { theme } = ThemeBody.parse(request.body ?? {});
    return { theme: await setTheme(deps, user, theme) };
  });

  // docs/decisions.md "Theme path" names this path too; it takes only the theme.
  app.put('/api/users/me', async (request) => {
    const { user } = await request.member();
    const { theme } = ThemeBody.parse(request.body ?? {});
    await setTheme(deps, user, theme);
    return { user: { ...userRowToUser(user, deps.media.url), theme } };
  });

  app.get('/api/users/profile/:username', async (request) => {
    await request.member();
    const { username } = UsernameParams.parse(request.params);
    return { user: userRowToPublicUser(await publicProfile(deps, username), deps.media.url) };
  });
}
