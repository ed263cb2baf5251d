import type { ReactNode } from 'react';

/** A row of tabs over the lists of the bell and the panel; `tabs` maps each id to its label. */
export function NotificationTabs<Id extends string>({
  label,
  tabs,
  selected,
  onSelect,
}: {
  label: string;
  tabs: Record<Id, ReactNode>;
  selected: Id;
  onSelect: (id: Id) => void;
}) {
  return (
    <div className="notification-tabs" role="tablist" aria-label={label}>
      {(Object.keys(tabs) as Id[]).map((id) => (
        <button
          key={id}
          type="button"
          role="tab"
          aria-selected={selected === id}
          onClick={() => onSelect(id)}
        >
          {tabs[id]}
        </button>
      ))}
    </div>
  );
}
