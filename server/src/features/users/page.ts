/**
 * What a signed-in navigation to a profile carries in its document (docs/architecture.md
 * "Code splitting and first paint"): the member the session names, as `GET /api/auth/me` answers
 * it, the avatar the profile's header shows and, on the member's own profile, what its first
 * screen shows of them. The owner is looked up as the profile call looks them up: a member the
 * viewer can't see, like a visitor without a session, gets the plain shell.
 */
import type { FastifyRequest } from 'fastify';
import { DEFAULT_AVATAR, DEFAULT_QUOTE } from '../../../../src/contracts/constants.ts';
import { displayText } from '../../../../src/contracts/validation.ts';
import { NotFound } from '../../errors.ts';
import { usernameKey } from '../../members/keys.ts';
import { profileImageUrl, userRowToUser } from '../../members/mapping.ts';
import type { ProfileDocument } from '../../plugins/static.ts';
import { publicProfile } from '../auth/service.ts';

const PROFILE_PATH = /^\/profile(?:\/([^/?#]+))?\/?(?:[?#].*)?$/;

export function profileDocument(request: FastifyRequest): Promise<ProfileDocument | null> {
  // The page itself never fails for its additions: without them it starts as it would from a cache.
  return documentFor(request).catch((error: unknown) => {
    request.log.warn({ err: error }, 'profile page data unavailable');
    return null;
  });
}

async function documentFor(request: FastifyRequest): Promise<ProfileDocument | null> {
  const match = PROFILE_PATH.exec(request.url);
  if (!match) return null;
  let username: string;
  try {
    username = decodeURIComponent(match[1] ?? '');
  } catch {
    return null;
  }
  const current = await request.auth();
  if (!current) return null;
  const deps = request.server.sessions;
  let owner = current.user;
  if (username && usernameKey(username) !== current.user.username_key) {
    try {
      owner = await publicProfile(deps, username, current.user.id);
    } catch (error) {
      if (error instanceof NotFound) return null;
      throw error;
    }
  }
  const me = userRowToUser(current.user, deps.media.url);
  const avatar = profileImageUrl(owner, deps.media.url) || DEFAULT_AVATAR;
  return {
    me: { user: me },
    avatar,
    // The header as src/features/profile/ProfileHeader.tsx shows it.
    ...(owner === current.user && {
      ownScreen: {
        theme: me.theme,
        slots: {
          username: me.username,
          fullName: me.fullName,
          avatar,
          quote: displayText(me.favoriteQuote) || DEFAULT_QUOTE,
        },
      },
    }),
  };
}
