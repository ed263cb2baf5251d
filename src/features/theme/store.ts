import { create } from 'zustand';
import { STORAGE_KEYS } from '../../lib/constants.ts';
import type { Theme } from '../../contracts/theme.ts';
import { nextTheme } from './resolve.ts';
import { readLocal, writeLocal } from '../../lib/storage.ts';
import { resolveTheme } from './resolve.ts';

interface ThemeState {
  theme: Theme;
  userId: string | null;
  /** Picks the theme for a member (or for nobody) by the load order of docs/product.md "Theme". */
  loadFor: (user: { id: string; theme?: unknown } | null) => void;
  /** Saves locally and to the server; a server failure only warns. */
  setTheme: (theme: Theme) => void;
  toggle: () => void;
}

function apply(theme: Theme) {
  document.documentElement.dataset.theme = theme;
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
    set({ theme });
    apply(theme);
    writeLocal(STORAGE_KEYS.lastTheme, theme);
    if (userId) {
      writeLocal(STORAGE_KEYS.themeFor(userId), theme);
      import('../auth/api.ts')
        .then(({ authApi }) => authApi.saveTheme(theme))
        .catch((error: unknown) => console.warn('Could not save theme', error));
    }
  },

  toggle() {
    get().setTheme(nextTheme(get().theme));
  },
}));

apply(useTheme.getState().theme);
