import { type FormEvent, useState } from 'react';
import { TextAreaField } from '../../components/Field.tsx';
import { TEXT_LIMITS } from '../../contracts/validation.ts';
import { HttpError } from '../../lib/http.ts';
import { useSession } from '../auth/store.ts';
import { useNeedsNetwork } from '../offline/store.ts';
import { profileApi } from './api.ts';

function saveErrorText(error: unknown): string {
  if (error instanceof HttpError) {
    if (error.status === 401) return 'You are signed out. Please log in again.';
    if (error.status === 400 && error.serverMessage) return error.serverMessage;
  }
  return 'Could not save. Please try again.';
}

interface QuoteEditorProps {
  quote: string;
  onDone: () => void;
}

/** The owner's favourite-quote editor, saved through PATCH /api/auth/profile (docs/decisions.md "Profile quote, share and unbuilt parts"). */
export function QuoteEditor({ quote, onDone }: QuoteEditorProps) {
  const [draft, setDraft] = useState(quote);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const needsNetwork = useNeedsNetwork();

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    setSaving(true);
    setError(null);
    try {
      const user = await profileApi.saveQuote(draft.trim());
      if (!user) throw new Error('No user in the answer');
      useSession.getState().setUser(user);
      onDone();
    } catch (failure) {
      setError(saveErrorText(failure));
      setSaving(false);
    }
  };

  return (
    <form className="profile-quote-editor" onSubmit={(event) => void save(event)}>
      <TextAreaField
        label="Favorite quote"
        maxLength={TEXT_LIMITS.favoriteQuote.max}
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        error={error}
        liveError
      />
      <div>
        <button type="submit" className="button primary" {...needsNetwork(saving)}>
          {saving ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  );
}
