export const THEMES = ['light', 'normal1', 'normal2', 'dark', 'custom'] as const;
export type Theme = (typeof THEMES)[number];
export const DEFAULT_THEME: Theme = 'normal1';

export function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value);
}

/**
 * The cookie holding the theme this browser shows, so a document the server renders with its first
 * screen (the landing page) is drawn in it from the first paint.
 */
export const THEME_COOKIE = 'orbit-theme';
