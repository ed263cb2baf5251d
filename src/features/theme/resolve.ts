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
