import type { ButtonHTMLAttributes } from 'react';
import { useNeedsNetwork } from './store.ts';

/** A button whose action needs the server: disabled while offline, with the reason attached. */
export function NetworkButton({
  disabled = false,
  ...props
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'>) {
  const needsNetwork = useNeedsNetwork();
  return <button type="button" {...props} {...needsNetwork(disabled)} />;
}
