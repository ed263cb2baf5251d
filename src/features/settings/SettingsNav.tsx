import { OUTBOX_SECTION } from '../offline/outboxWords.ts';
import { SECTIONS, type SectionId } from './settingsState.ts';

/**
 * The sections below the four steps, whose controls act at once: the offline outbox
 * (docs/product.md "Offline, install and push") and the member's safety (docs/product.md "Safety").
 */
export const MORE_SECTIONS = [
  { ...OUTBOX_SECTION, nav: OUTBOX_SECTION.label },
  { id: 'blocked', label: 'Blocked members', nav: 'Blocked members' },
  { id: 'data', label: 'Download my data', nav: 'Download my data' },
  { id: 'danger', label: 'Danger zone', nav: 'Danger zone' },
] as const;
export type MoreSectionId = (typeof MORE_SECTIONS)[number]['id'];

/**
 * Links to every section by its plain name (the headings keep the spec's "Step n" names): a side
 * column on wide screens, one row of pills that scrolls sideways on its own on a phone.
 */
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
              {section.nav}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}
