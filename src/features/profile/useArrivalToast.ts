import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { PROFILE_TOAST_MS } from '../../lib/constants.ts';
import { useToast } from '../../components/useToast.ts';

/** What a page that sends the member to a profile hands over with the navigation. */
export interface ArrivalState {
  toast?: string;
}

/**
 * The toast another page asked this profile to show on arrival (`Blocked @{username}`). It is shown
 * once: the history entry forgets it, so going back and forth or reloading does not repeat it.
 */
export function useArrivalToast(): string | null {
  const location = useLocation();
  const navigate = useNavigate();
  const [message, show] = useToast(PROFILE_TOAST_MS);
  const toast = (location.state as ArrivalState | null)?.toast;
  useEffect(() => {
    if (!toast) return;
    show(toast);
    void navigate(
      { pathname: location.pathname, search: location.search, hash: location.hash },
      { replace: true, state: null },
    );
  }, [toast, show, navigate, location.pathname, location.search, location.hash]);
  return message;
}
