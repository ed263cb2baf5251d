import { useMemo } from 'react';
import { useNotifications } from './store.ts';

/** Request ids still waiting for an answer: their notifications show accept and decline. */
export function usePendingRequests(): Set<string> {
  const synthesised = useNotifications((state) => state.synthesised);
  const incoming = useNotifications((state) => state.incoming);
  return useMemo(
    () =>
      new Set([
        ...synthesised.map((item) => item.requestId ?? ''),
        ...incoming.map((item) => item.requestId),
      ]),
    [synthesised, incoming],
  );
}
