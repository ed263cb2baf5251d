import { type ReactNode, useEffect, useId, useState } from 'react';
import { charactersLeft, isNearLimit } from './charCount.ts';
import './Field.css';

/**
 * Screen readers hear the count once typing pauses, not on every keystroke: the visible counter
 * is tied to the field with aria-describedby, and a separate polite live region repeats it.
 */
export const CHAR_COUNT_ANNOUNCE_MS = 1_000;

export interface CharCount {
  /** The counter's id while it is shown, for the field's aria-describedby. */
  describedBy: string | undefined;
  counter: ReactNode;
}

/** The live "n characters left" counter of a field limited to `max` characters. */
export function useCharCount(value: string, max: number): CharCount {
  const id = useId();
  const near = isNearLimit(value.length, max);
  const text = near ? charactersLeft(value.length, max) : '';
  const [announced, setAnnounced] = useState('');
  // What the field opened with is read with it (aria-describedby); only typing is announced.
  const [opened] = useState(text);
  useEffect(() => {
    if (text === opened && announced === '') return;
    const timer = setTimeout(() => setAnnounced(text), CHAR_COUNT_ANNOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, opened, announced]);
  // A field without a limit has nothing to count.
  if (!Number.isFinite(max)) return { describedBy: undefined, counter: null };
  return {
    describedBy: near ? id : undefined,
    counter: (
      <>
        {near && (
          <p id={id} className="char-count" data-testid="char-count">
            {text}
          </p>
        )}
        <span className="visually-hidden" aria-live="polite">
          {announced}
        </span>
      </>
    ),
  };
}
