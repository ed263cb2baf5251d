import { DEFAULT_THEME, type Theme, isTheme } from '../../contracts/theme.ts';

/** Owner theme words beyond the five themes, and the palette each one shows (docs/product.md "Theme"). */
const OWNER_WORDS: Record<string, Theme> = {
  day: 'light',
  bright: 'light',
  white: 'light',
  normal: 'normal1',
  default: 'normal1',
  cosmos: 'normal1',
  night: 'dark',
  black: 'dark',
};

/** The palette a profile shows for its owner's theme word; anything unknown is normal1 (docs/product.md "Theme"). */
export function themeForOwner(word: unknown): Theme {
  if (typeof word !== 'string') return DEFAULT_THEME;
  const key = word.trim().toLowerCase();
  if (isTheme(key)) return key;
  return OWNER_WORDS[key] ?? DEFAULT_THEME;
}
