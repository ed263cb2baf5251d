import { useId, useState } from 'react';
import { useCharCount } from '../../components/useCharCount.tsx';
import { CAPTION_MAX } from '../../contracts/gallery.ts';
import { galleryPatch } from '../../contracts/paths/gallery.ts';
import { useNeedsNetwork } from '../offline/store.ts';
import { WaitingMark } from '../offline/WaitingMark.tsx';

export type CaptionMode = 'view' | 'editing' | 'saving';

interface CaptionEditorProps {
  caption: string;
  mode: CaptionMode;
  onModeChange: (mode: CaptionMode) => void;
  /** Rejects with the text to show quietly when the save failed. */
  onSave: (caption: string) => Promise<void>;
  /** The caption shown was written offline and waits to be sent. */
  waiting?: boolean;
}

/** The caption in its three states (docs/product.md "Image viewer"): view, editing, saving; Cancel restores the old text. */
export function CaptionEditor({
  caption,
  mode,
  onModeChange,
  onSave,
  waiting = false,
}: CaptionEditorProps) {
  const id = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const [failure, setFailure] = useState('');
  const needsNetwork = useNeedsNetwork();
  const text = draft ?? caption;
  const count = useCharCount(text, CAPTION_MAX);

  const cancel = () => {
    setDraft(null);
    setFailure('');
    onModeChange('view');
  };
  const save = async () => {
    onModeChange('saving');
    setFailure('');
    try {
      await onSave(text.trim());
      setDraft(null);
      onModeChange('view');
    } catch (error) {
      // docs/product.md "Errors": swallowed, so only a quiet note beside the field, never an alert.
      setFailure(error instanceof Error ? error.message : 'Failed to save');
      onModeChange('editing');
    }
  };

  if (mode === 'view') {
    const shown = (
      <p className={`viewer-caption${caption ? '' : ' empty'}`}>{caption || 'No caption'}</p>
    );
    return waiting ? (
      <div className="viewer-caption-waiting">
        {shown}
        <WaitingMark />
      </div>
    ) : (
      shown
    );
  }
  return (
    <form
      className="caption-form"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <label htmlFor={id}>Caption</label>
      <textarea
        id={id}
        value={text}
        rows={3}
        maxLength={CAPTION_MAX}
        aria-describedby={count.describedBy}
        autoFocus
        disabled={mode === 'saving'}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            // Escape leaves editing; the viewer stays open.
            event.preventDefault();
            event.stopPropagation();
            cancel();
          }
        }}
      />
      {count.counter}
      {failure && <p className="caption-note">{failure}</p>}
      <div className="caption-actions">
        <button
          type="button"
          className="button small"
          onClick={cancel}
          disabled={mode === 'saving'}
        >
          Cancel
        </button>
        <button
          type="submit"
          className="button primary small"
          {...needsNetwork(mode === 'saving', galleryPatch)}
        >
          {mode === 'saving' ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  );
}
