/**
 * The first screen of a route as HTML, made when the app is built (vite.config.ts
 * `prerenderFirstScreens`): the server sends it inside the document, so the page paints before its
 * code has run (docs/architecture.md "Code splitting and first paint"). React then renders the same
 * screen over it.
 */
import { prerenderToNodeStream } from 'react-dom/static';
import { MemoryRouter } from 'react-router-dom';
import { AppRoutes } from './app/routes.tsx';
import { PROFILE_SLOTS } from './contracts/constants.ts';
import type { Theme } from './contracts/theme.ts';
import { useSession } from './features/auth/store.ts';
import { useTheme } from './features/theme/store.ts';

export async function firstScreen(path: string): Promise<string> {
  const { prelude } = await prerenderToNodeStream(
    <MemoryRouter initialEntries={[path]}>
      <AppRoutes />
    </MemoryRouter>,
  );
  let html = '';
  for await (const chunk of prelude) html += String(chunk);
  return untilTheAppRuns(html);
}

/**
 * The member's own profile for a placeholder member whose fields are PROFILE_SLOTS, in `theme`: the
 * top bar and the header as the app first renders them, the photos and friends still loading. The
 * server fills the slots with the member's own fields.
 */
export async function ownProfileScreen(theme: Theme): Promise<string> {
  // A server render reads each store's initial state (useSyncExternalStore's server snapshot), so
  // the placeholder member goes there.
  Object.assign(useSession.getInitialState(), {
    status: 'signedIn',
    error: null,
    user: {
      id: 'orbit-slot-id',
      username: PROFILE_SLOTS.username,
      fullName: PROFILE_SLOTS.fullName,
      firstName: '',
      lastName: '',
      profileImage: PROFILE_SLOTS.avatar,
      favoriteQuote: PROFILE_SLOTS.quote,
      theme,
      email: '',
      birthday: '',
      interests: [],
      referral: '',
      referralCode: '',
      securityQuestion: '',
      isModerator: false,
    },
  });
  Object.assign(useTheme.getInitialState(), { theme });
  const html = await firstScreen(`/profile/${PROFILE_SLOTS.username}`);
  // The document's head has the avatar's preload already.
  return html.replace(`<link rel="preload" as="image" href="${PROFILE_SLOTS.avatar}"/>`, '');
}

/**
 * The first screen takes no input before the app does, as the app renders over it: its fields are
 * read-only, its checkboxes disabled, and its submit buttons plain buttons, so that nothing typed
 * is lost and no form is sent by the browser itself.
 */
function untilTheAppRuns(html: string): string {
  return html
    .replace(/<input type="checkbox"/g, '<input disabled type="checkbox"')
    .replace(/<input(?! disabled type="checkbox")/g, '<input readonly')
    .replace(/<button type="submit"/g, '<button type="button"');
}
