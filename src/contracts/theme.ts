export const THEMES = ['light', 'normal1', 'normal2', 'dark', 'custom'] as const;
export type Theme = (typeof THEMES)[number];
export const DEFAULT_THEME: Theme = 'normal1';
/** The top-bar toggle cycles through these three (docs/product.md "Theme"). */
export const THEME_CYCLE: readonly Theme[] = ['light', 'normal1', 'dark'];

export function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value);
}

export function nextTheme(current: Theme): Theme {
  const at = THEME_CYCLE.indexOf(current);
  // A theme outside the cycle (normal2, custom) starts it again from the first.
  return THEME_CYCLE[(at + 1) % THEME_CYCLE.length] ?? 'light';
}
