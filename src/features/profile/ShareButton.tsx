import { LINK_COPIED_MS } from '../../lib/constants.ts';
import { useToast } from '../../components/useToast.ts';
import { copyText } from '../gallery/copyText.ts';

/** Opens the system share sheet where there is one, else copies the profile link (docs/product.md "Profile"). */
export function ShareButton({ username }: { username: string }) {
  const [message, show] = useToast(LINK_COPIED_MS);
  const url = `${window.location.origin}/profile/${encodeURIComponent(username)}`;

  const share = async () => {
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title: `@${username} on Orbit`, url });
        return;
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') return;
        // No share sheet after all: copy instead.
      }
    }
    show((await copyText(url)) ? 'Link copied' : 'Could not copy the link.');
  };

  return (
    <span className="profile-share">
      <button type="button" className="button" onClick={() => void share()}>
        Share
      </button>
      <span className="profile-share-status" role="status" aria-live="polite">
        {message}
      </span>
    </span>
  );
}
