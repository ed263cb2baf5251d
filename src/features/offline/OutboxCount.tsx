import { Link } from 'react-router-dom';
import { Icon } from '../../components/Icon.tsx';
import { useOutboxItems } from './outbox.ts';
import { OUTBOX_SECTION_PATH, waitingLabel } from './outboxWords.ts';
import './offline.css';

/**
 * The top bar's count of changes waiting in the offline outbox, a link to Settings → Waiting to
 * send (docs/product.md "Offline, install and push"); nothing while none wait.
 */
export function OutboxCount() {
  const count = useOutboxItems((state) => state.items.length);
  if (count === 0) return null;
  return (
    <Link to={OUTBOX_SECTION_PATH} className="outbox-count" aria-label={waitingLabel(count)}>
      {/* A cloud with an arrow up: to be sent. */}
      <Icon
        size={20}
        path="M19.35 10.04A7.49 7.49 0 0 0 12 4a7.5 7.5 0 0 0-6.65 4.04A6 6 0 0 0 6 20h13a5 5 0 0 0 .35-9.96ZM14 13v4h-4v-4H7l5-5 5 5h-3Z"
      />
      <span className="outbox-count-number">{count > 99 ? '99+' : count}</span>
      <span className="outbox-count-words"> waiting</span>
    </Link>
  );
}
