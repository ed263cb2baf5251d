import { SECTIONS, type SectionId } from './settingsState.ts';

/** Links to the four sections: a side column on wide screens, a row of pills on mobile. */
export function SettingsNav({ editing }: { editing: SectionId | null }) {
  return (
    <nav className="settings-nav" aria-label="Settings sections">
      <ol>
        {SECTIONS.map((section) => (
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
