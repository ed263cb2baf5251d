import { useSyncExternalStore } from 'react';
import { BREAKPOINTS } from '../../lib/constants.ts';

/** The profile grid: 4 columns, 3 at up to 900 px, 2 at up to 640 px (docs/product.md "Gallery", "Limits and timings"). */
const QUERIES: readonly [string, number][] = [
  [`(max-width: ${BREAKPOINTS.small}px)`, 2],
  [`(max-width: ${BREAKPOINTS.tablet}px)`, 3],
];

function columnsNow(): number {
  if (typeof window.matchMedia !== 'function') return 4;
  return QUERIES.find(([query]) => window.matchMedia(query).matches)?.[1] ?? 4;
}

function subscribe(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => undefined;
  const lists = QUERIES.map(([query]) => window.matchMedia(query));
  for (const list of lists) list.addEventListener('change', onChange);
  return () => {
    for (const list of lists) list.removeEventListener('change', onChange);
  };
}

export function useColumns(): number {
  return useSyncExternalStore(subscribe, columnsNow, () => 4);
}
