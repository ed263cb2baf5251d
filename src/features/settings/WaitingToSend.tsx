import { useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { breakable } from '../../components/breakable.tsx';
import type { OutboxItem } from '../../lib/outboxQueue.ts';
import { useOutboxItems } from '../offline/outbox.ts';
import { outboxItemText } from '../offline/outboxItemText.ts';
import { OUTBOX_SECTION } from '../offline/outboxWords.ts';
import { useRefocusAfterRemoval } from './useRefocusAfterRemoval.ts';

const NOTHING_WAITS = 'Nothing is waiting to send.';
const WAITING_NOTE =
  'Changes made offline are sent in this order when you’re back online. Discard one to never send it.';
/** Shown until an item's words are read (an upload's form is read from the device). */
const READING = 'A change';
const TAKEN_AT = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Each item's words by id, read again whenever the list changes. */
function useItemTexts(items: readonly OutboxItem[]): Record<number, string> {
  const [texts, setTexts] = useState<Record<number, string>>({});
  useEffect(() => {
    let current = true;
    void Promise.all(
      items.map(async (item) => [item.id, await outboxItemText(item)] as const),
    ).then((pairs) => {
      if (current) setTexts(Object.fromEntries(pairs));
    });
    return () => {
      current = false;
    };
  }, [items]);
  return texts;
}

/** Scrolls to the section and puts focus on its title when the address names it (the top bar's link). */
function useShownFromLink() {
  const { hash, key } = useLocation();
  useEffect(() => {
    if (hash !== `#settings-${OUTBOX_SECTION.id}`) return;
    const title = document.getElementById(`settings-${OUTBOX_SECTION.id}-title`);
    title?.setAttribute('tabindex', '-1');
    title?.closest('section')?.scrollIntoView({ block: 'start' });
    title?.focus({ preventScroll: true });
  }, [hash, key]);
}

/**
 * Settings → Waiting to send (docs/product.md "Offline, install and push"): the changes made
 * offline that the device keeps to send, oldest first, each with when it was made and Discard,
 * which drops it for good; the page then shows the server's state again (a discarded like is
 * undone). Discard needs no network.
 */
export function WaitingToSend({ onToast }: { onToast: (message: string) => void }) {
  const items = useOutboxItems((state) => state.items);
  const load = useOutboxItems((state) => state.load);
  const discard = useOutboxItems((state) => state.discard);
  const texts = useItemTexts(items);
  const [busy, setBusy] = useState<ReadonlySet<number>>(new Set());
  const { listRef, refocusAtRef } = useRefocusAfterRemoval(
    `settings-${OUTBOX_SECTION.id}-title`,
    items,
  );
  useShownFromLink();
  // Read from the device when the page opens: the worker may have sent items meanwhile.
  useEffect(() => void load(), [load]);

  const onDiscard = async (item: OutboxItem, text: string) => {
    setBusy((now) => new Set(now).add(item.id));
    refocusAtRef.current = items.findIndex((waiting) => waiting.id === item.id);
    try {
      await discard(item.id);
      onToast(`Discarded: ${text}`);
    } finally {
      setBusy((now) => {
        const next = new Set(now);
        next.delete(item.id);
        return next;
      });
    }
  };

  if (items.length === 0) return <p className="settings-note">{NOTHING_WAITS}</p>;
  return (
    <>
      <p className="settings-note">{WAITING_NOTE}</p>
      <ul className="settings-outbox" ref={listRef}>
        {items.map((item) => {
          const text = texts[item.id] ?? READING;
          return (
            <li key={item.id}>
              <span className="settings-outbox-what">
                <span className="settings-outbox-text">{breakable(text)}</span>
                <time dateTime={new Date(item.at).toISOString()}>{TAKEN_AT.format(item.at)}</time>
              </span>
              <button
                type="button"
                className="button"
                aria-label={`Discard: ${text}`}
                disabled={busy.has(item.id)}
                onClick={() => void onDiscard(item, text)}
              >
                Discard
              </button>
            </li>
          );
        })}
      </ul>
    </>
  );
}
