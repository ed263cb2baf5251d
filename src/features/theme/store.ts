import { create } from 'zustand';
import { CHANNELS, STORAGE_KEYS } from '../../lib/constants.ts';
import { THEME_COOKIE, type Theme, isTheme } from '../../contracts/theme.ts';
import { openChannel } from '../../lib/crossTab.ts';
import { sessionCalls } from '../auth/store.ts';
import { nextTheme } from './resolve.ts';
import { readLocal, writeLocal } from '../../lib/storage.ts';
import { resolveTheme } from './resolve.ts';

interface ThemeState {
  theme: Theme;
  userId: string | null;
  /** Picks the theme for a member (or for nobody) by the load order of docs/product.md "Theme". */
  loadFor: (user: { id: string; theme?: unknown } | null) => void;
  /** Saves locally and to the server and tells the other tabs; a server failure only warns. */
  setTheme: (theme: Theme) => void;
  toggle: () => void;
}

/** What one tab tells the others: the theme a member (or nobody) now has. */
interface ThemeMessage {
  userId: string | null;
  theme: Theme;
}

let channel: ReturnType<typeof openChannel> | null = null;
/** Counts the member's own changes, so a server answer asked for before one never undoes it. */
let changes = 0;
/** The member's choice the server has not taken yet (offline, or the call failed). */
let unsaved: ThemeMessage | null = null;

const YEAR_SECONDS = 365 * 24 * 60 * 60;

function apply(theme: Theme) {
  document.documentElement.dataset.theme = theme;
  const secure = window.location.protocol === 'https:' ? '; secure' : '';
  document.cookie = `${THEME_COOKIE}=${theme}; path=/; max-age=${YEAR_SECONDS}; samesite=lax${secure}`;
}

/** Shows a theme the member (or nobody) now has, and keeps it here for the next start. */
function show(userId: string | null, theme: Theme) {
  useTheme.setState({ theme });
  apply(theme);
  writeLocal(STORAGE_KEYS.lastTheme, theme);
  if (userId) writeLocal(STORAGE_KEYS.themeFor(userId), theme);
}

/** Saves the member's choice; until the server has it, it is sent again rather than undone. */
function save(message: ThemeMessage) {
  unsaved = message;
  sessionCalls()
    .then((authApi) => authApi.saveTheme(message.theme))
    .then(() => {
      if (unsaved === message) unsaved = null;
      // Told again once saved: a tab that asked the server in between took the old theme.
      channel?.post(message);
    })
    .catch((error: unknown) => console.warn('Could not save theme', error));
}

export const useTheme = create<ThemeState>()((set, get) => ({
  theme: resolveTheme({ server: null, perUser: null, last: readLocal(STORAGE_KEYS.lastTheme) }),
  userId: null,

  loadFor(user) {
    const theme = resolveTheme({
      server: user?.theme,
      perUser: user ? readLocal(STORAGE_KEYS.themeFor(user.id)) : null,
      last: readLocal(STORAGE_KEYS.lastTheme),
    });
    set({ theme, userId: user?.id ?? null });
    apply(theme);
  },

  setTheme(theme) {
    const { userId } = get();
    changes += 1;
    show(userId, theme);
    const message: ThemeMessage = { userId, theme };
    channel?.post(message);
    if (userId) save(message);
  },

  toggle() {
    get().setTheme(nextTheme(get().theme));
  },
}));

/** Takes a theme another tab or the server decided, without saving it anywhere but here. */
function adopt(userId: string | null, theme: unknown) {
  const state = useTheme.getState();
  if (userId !== state.userId || !isTheme(theme) || theme === state.theme) return;
  show(userId, theme);
}

/**
 * The member's theme as the server has it now; it wins over what this tab had, but for a choice
 * made here that the server has not taken yet, which is sent again instead.
 */
async function checkServer() {
  const { userId } = useTheme.getState();
  if (!userId) return;
  if (unsaved?.userId === userId) {
    save(unsaved);
    return;
  }
  const before = changes;
  const user = await sessionCalls()
    .then((authApi) => authApi.me())
    .catch(() => null);
  if (user && changes === before) adopt(user.id, user.theme);
}

/**
 * Keeps every open tab on one theme (docs/product.md "Theme"): a change in one tab reaches the
 * others at once over BroadcastChannel `orbit:theme`, and when a tab comes back into focus (or
 * online) the server's theme wins, unless this tab holds a choice the server has not taken yet.
 */
export function connectThemeAcrossTabs(): () => void {
  channel = openChannel(CHANNELS.theme, (data) => {
    const message = data as Partial<ThemeMessage> | null;
    if (message) adopt(message.userId ?? null, message.theme);
  });
  const onFocus = () => void checkServer();
  const onVisible = () => {
    if (document.visibilityState === 'visible') onFocus();
  };
  window.addEventListener('focus', onFocus);
  window.addEventListener('online', onFocus);
  document.addEventListener('visibilitychange', onVisible);
  return () => {
    channel?.close();
    channel = null;
    window.removeEventListener('focus', onFocus);
    window.removeEventListener('online', onFocus);
    document.removeEventListener('visibilitychange', onVisible);
  };
}

apply(useTheme.getState().theme);
