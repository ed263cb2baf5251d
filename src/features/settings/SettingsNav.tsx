import { SECTIONS, type SectionId } from './settingsState.ts';

/** The sections below the four steps, whose controls act at once (docs/product.md "Safety"). */
export const MORE_SECTIONS = [
  { id: 'blocked', label: 'Blocked members' },
  { id: 'data', label: 'Download my data' },
  { id: 'danger', label: 'Danger zone' },
] as const;
export type MoreSectionId = (typeof MORE_SECTIONS)[number]['id'];

/** Links to every section: a side column on wide screens, a row of pills on mobile. */
export function SettingsNav({ editing }: { editing: SectionId | null }) {
  return (
    <nav className="settings-nav" aria-label="Settings sections">
      <ol>
        {[...SECTIONS, ...MORE_SECTIONS].map((section) => (
          <li key={section.id}>
            <a
              href={`#settings-${section.id}`}
              className={editing === section.id ? 'editing' : undefined}
            >
              {section.label}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}
