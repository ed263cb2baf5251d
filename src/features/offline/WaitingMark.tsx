import { QUEUED_WORDS } from '../../contracts/constants.ts';
import './offline.css';

/**
 * Marks a change made offline that waits in the outbox (docs/product.md "Offline, install and
 * push"): visible text, so screen readers read it where it stands; `id` lets the control it marks
 * name it as its description.
 */
export function WaitingMark({ id }: { id?: string }) {
  return (
    <span className="waiting-mark" id={id}>
      <span className="waiting-dot" aria-hidden="true" />
      {QUEUED_WORDS}
    </span>
  );
}
