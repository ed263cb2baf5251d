import type { KeyboardEvent, ReactNode } from 'react';
import './Tabs.css';

/** The id of tab `tab` of the tablist controlling `panelId`, which the panel is labelled by. */
export function tabId(panelId: string, tab: string): string {
  return `${panelId}-tab-${tab}`;
}

const MOVES: Record<string, (index: number, count: number) => number> = {
  ArrowRight: (index, count) => (index + 1) % count,
  ArrowLeft: (index, count) => (index - 1 + count) % count,
  Home: () => 0,
  End: (_index, count) => count - 1,
};

/**
 * A row of tabs (`tabs` maps each id to its label). Only the selected tab is in the Tab order; the
 * arrow keys, Home and End move to another tab and select it. With `panelId` each tab says it
 * controls that panel, which takes `aria-labelledby={tabId(panelId, selected)}`.
 */
export function Tabs<Id extends string>({
  label,
  tabs,
  selected,
  onSelect,
  panelId,
  className,
}: {
  label: string;
  tabs: Record<Id, ReactNode>;
  selected: Id;
  onSelect: (id: Id) => void;
  panelId?: string;
  className?: string;
}) {
  const ids = Object.keys(tabs) as Id[];
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const move = MOVES[event.key];
    if (!move) return;
    event.preventDefault();
    const next = ids[move(Math.max(0, ids.indexOf(selected)), ids.length)];
    if (next === undefined) return;
    onSelect(next);
    event.currentTarget.querySelectorAll<HTMLElement>('[role="tab"]')[ids.indexOf(next)]?.focus();
  };
  return (
    <div
      className={className ? `tabs ${className}` : 'tabs'}
      role="tablist"
      aria-label={label}
      onKeyDown={onKeyDown}
    >
      {ids.map((id) => (
        <button
          key={id}
          type="button"
          role="tab"
          aria-selected={selected === id}
          tabIndex={selected === id ? 0 : -1}
          {...(panelId ? { id: tabId(panelId, id), 'aria-controls': panelId } : {})}
          onClick={() => onSelect(id)}
        >
          {tabs[id]}
        </button>
      ))}
    </div>
  );
}
