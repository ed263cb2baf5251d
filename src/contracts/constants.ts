/**
 * Limits of docs/product.md "Limits and timings" that the server, the service worker or a schema
 * applies as well as the app, named once for all of them. The app's own timings, breakpoints and
 * storage names are in src/lib/constants.ts.
 */

export const DEFAULT_AVATAR = '/profilepic.jpg';

/**
 * The id of the `<script type="application/json">` a signed-in profile's document carries: the
 * `GET /api/auth/me` answer, read by the app instead of asking at start.
 */
export const BOOT_ELEMENT_ID = 'orbit-me';

/**
 * Set by the service worker on an API answer it served from the member's saved copy because the
 * network failed or was too slow; the page shows its offline banner for such answers.
 */
export const OFFLINE_HEADER = 'x-orbit-offline';

/**
 * The routes whose first screen the build renders into a copy of index.html, and where the build
 * keeps each copy (vite.config.ts); the server sends it to a visitor without a session
 * (server/src/plugins/static.ts), so the page paints before its code has run.
 */
export const FIRST_SCREENS: Readonly<Record<string, string>> = {
  '/landing': '.vite/first-screen/landing.html',
  '/signup': '.vite/first-screen/signup.html',
};

/**
 * The modules a first screen's route loads beside the entry (src/app/routes.tsx), by route: its
 * document names them with the entry's, fetched once the screen has painted (vite.config.ts), and
 * the start imports them before the first render (`FIRST_SCREEN_CODE` in src/app/warmRoute.ts).
 */
export const FIRST_SCREEN_SOURCES = {
  '/signup': ['src/features/auth/SignupPage.tsx'],
} as const satisfies Readonly<Record<string, readonly string[]>>;

/**
 * The member's own profile as its first screen, rendered by the build (vite.config.ts) once per
 * theme for a placeholder member whose fields are these slots; the server fills them with the
 * signed-in member's, HTML-escaped, and sends the copy of the member's theme for a navigation to
 * their own profile (server/src/features/users/page.ts).
 */
export const profileFirstScreen = (theme: string) => `.vite/first-screen/profile-${theme}.html`;
export const PROFILE_SLOTS = {
  username: 'orbit-slot-username',
  fullName: 'orbit-slot-full-name',
  avatar: 'orbit-slot-avatar',
  quote: 'orbit-slot-quote',
} as const;

/** The modules a profile runs beside the entry: the shell and the profile page. */
export const PROFILE_ROUTE_SOURCES: readonly string[] = [
  'src/app/Shell.tsx',
  'src/features/profile/ProfilePage.tsx',
];

/** A profile's quote when its owner wrote none. */
export const DEFAULT_QUOTE = 'Where connection meets cosmos.';

export const SEARCH_LIMIT = 12;
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

/** What a member's own record may hold. */
export const INTERESTS_MAX = 25;
export const MINIMUM_AGE = 18;
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 20;
export const PASSWORD_MIN = 8;
/** Long passphrases are welcome; an upper bound keeps hashing cost bounded. */
export const PASSWORD_MAX = 256;

/** The folder every image is in unless the owner chose another; never stored as a folder name. */
export const DEFAULT_FOLDER = 'All';

/**
 * The service worker's answer to a write it has put in the member's outbox to send when the
 * network is back (docs/decisions.md "The offline outbox"): `202` with the offline header and
 * these words as its `{error}`, which the page's call fails with.
 */
export const QUEUED_WORDS = 'Waiting to send';

/**
 * The header that names one member action, the same on every retry of it: the same write sent
 * again with its key is answered as the first time and changes nothing (docs/decisions.md
 * "Idempotency keys").
 */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** What the worker posts to the pages about an outbox item: sent, refused, or still waiting. */
export interface OutboxResult {
  type: 'outbox';
  key: string;
  /** Kept to send later; sent; refused by the server; still waiting after a try. */
  result: 'queued' | 'sent' | 'refused' | 'waiting';
  /** The server's `{error}` words for a refusal. */
  error?: string;
}

/** What a page asks the worker: send the signed-in member's waiting items now. */
export const OUTBOX_REPLAY = 'OUTBOX_REPLAY';
