import { DEFAULT_THEME, type Theme, isTheme } from '../../contracts/theme.ts';

export interface ThemeSources {
  server: unknown;
  perUser: unknown;
  last: unknown;
}

/** docs/product.md "Theme": the server's theme, else the member's saved one, else the last saved, else normal1. */
export function resolveTheme({ server, perUser, last }: ThemeSources): Theme {
  for (const candidate of [server, perUser, last]) {
    if (candidate !== null && candidate !== undefined && candidate !== '') {
      // The first source that says something decides; an unknown word falls back to the default.
      return isTheme(candidate) ? candidate : DEFAULT_THEME;
    }
  }
  return DEFAULT_THEME;
}

/** The top-bar toggle cycles through these three (docs/product.md "Theme"). */
const THEME_CYCLE: readonly Theme[] = ['light', 'normal1', 'dark'];

/** The theme the top-bar toggle turns to next. */
export function nextTheme(current: Theme): Theme {
  const at = THEME_CYCLE.indexOf(current);
  // A theme outside the cycle (normal2, custom) starts it again from the first.
  return THEME_CYCLE[(at + 1) % THEME_CYCLE.length] ?? 'light';
}
