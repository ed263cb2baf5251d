import { nextTheme } from './resolve.ts';
import { useTheme } from './store.ts';

const LABELS = {
  light: 'Light',
  normal1: 'Cosmos',
  normal2: 'Nebula',
  dark: 'Dark',
  custom: 'Custom',
} as const;

export function ThemeToggle() {
  const theme = useTheme((state) => state.theme);
  const toggle = useTheme((state) => state.toggle);
  const next = nextTheme(theme);
  return (
    <button
      type="button"
      className="icon-button"
      onClick={toggle}
      aria-label={`Theme: ${LABELS[theme]}. Switch to ${LABELS[next]}`}
      title={`Switch to ${LABELS[next]} theme`}
      data-theme-current={theme}
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22">
        {theme === 'light' ? (
          <path
            fill="currentColor"
            d="M12 7a5 5 0 1 0 0 10 5 5 0 0 0 0-10Zm0-5 1.5 3h-3L12 2Zm0 20-1.5-3h3L12 22ZM2 12l3-1.5v3L2 12Zm20 0-3 1.5v-3l3 1.5Z"
          />
        ) : (
          <path fill="currentColor" d="M20 14.5A8.5 8.5 0 0 1 9.5 4a8.5 8.5 0 1 0 10.5 10.5Z" />
        )}
      </svg>
    </button>
  );
}
