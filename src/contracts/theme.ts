export const THEMES = ['light', 'normal1', 'normal2', 'dark', 'custom'] as const;
export type Theme = (typeof THEMES)[number];
export const DEFAULT_THEME: Theme = 'normal1';

export function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value);
}
