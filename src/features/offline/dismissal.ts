import { useState } from 'react';
import { readLocal, writeLocal } from '../../lib/storage.ts';

/** Whether a notice was dismissed on this device (remembered under `key`), and how to dismiss it. */
export function useRememberedDismissal(key: string): [dismissed: boolean, dismiss: () => void] {
  const [dismissed, setDismissed] = useState(() => readLocal(key) !== null);
  const dismiss = () => {
    writeLocal(key, '1');
    setDismissed(true);
  };
  return [dismissed, dismiss];
}
