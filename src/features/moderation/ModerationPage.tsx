import { useCallback, useEffect, useRef, useState } from 'react';
import { Tabs, tabId } from '../../components/Tabs.tsx';
import type { ModerationReport, ReportStatus } from '../../contracts/safety.ts';
import { useSession } from '../auth/store.ts';
import { useNow } from '../notifications/hooks.ts';
import { whileShown } from '../../lib/serverState.ts';
import { loadErrorMessage } from '../notifications/logic.ts';
import { ReportCard } from './ReportItem.tsx';
import { type ActionOutcome, useModeration } from './store.ts';
import { SuspendDialog } from './SuspendDialog.tsx';
import './moderation.css';

const PANEL_ID = 'reports-panel';
/** Relative times are read again this often. */
const CLOCK_MS = 30_000;

const EMPTY: Record<ReportStatus, string> = {
  open: 'No open reports.',
  resolved: 'No resolved reports.',
};
const LIST_LABELS: Record<ReportStatus, string> = {
  open: 'Open reports',
  resolved: 'Resolved reports',
};

/** `/moderation` (docs/product.md "Moderation"): reports for moderators, everyone else told no. */
export function ModerationPage() {
  const moderator = useSession((state) => state.user?.isModerator ?? false);
  const forbidden = useModeration((state) => state.forbidden);
  const reset = useModeration((state) => state.reset);
  // What was loaded belongs to this visit: none of it is kept for the next member or visit.
  useEffect(() => reset, [reset]);
  return (
    <main className="moderation-page" id="main">
      <h1>Reports</h1>
      {moderator && !forbidden ? <ReportsBoard /> : <p>Only moderators can see reports.</p>}
    </main>
  );
}

function ReportsBoard() {
  const [tab, setTab] = useState<ReportStatus>('open');
  const [suspending, setSuspending] = useState<ModerationReport | null>(null);
  const panel = useRef<HTMLDivElement>(null);
  const list = useModeration((state) => state.lists[tab]);
  const notice = useModeration((state) => state.notice);
  const load = useModeration((state) => state.load);
  const loadMore = useModeration((state) => state.loadMore);
  const now = useNow(true, CLOCK_MS);

  useEffect(() => {
    void load(tab);
    // Back online, the list may have been a saved copy: it is read again.
    return whileShown(() => void load(tab), { live: false });
  }, [tab, load]);

  const select = (next: ReportStatus) => {
    // The tab already shown is read again.
    if (next === tab) void load(next);
    else setTab(next);
  };
  // The report acted on may have left the list, and focus with it: the list takes focus.
  const onActed = useCallback((outcome: ActionOutcome) => {
    if (outcome !== 'unreachable') panel.current?.focus();
  }, []);

  return (
    <>
      {notice && (
        <p className="form-error" role="alert">
          {notice}
        </p>
      )}
      <Tabs
        label="Reports"
        tabs={{ open: 'Open', resolved: 'Resolved' }}
        selected={tab}
        onSelect={select}
        panelId={PANEL_ID}
        className="moderation-tabs"
      />
      <div
        className="moderation-panel"
        role="tabpanel"
        id={PANEL_ID}
        aria-labelledby={tabId(PANEL_ID, tab)}
        tabIndex={-1}
        ref={panel}
      >
        {!list || list.status === 'loading' ? (
          <p role="status">Loading…</p>
        ) : list.status === 'error' || list.status === 'missing' ? (
          <p className="form-error" role="alert">
            Error: {loadErrorMessage(list.error)}
          </p>
        ) : list.items.length === 0 ? (
          <p className="moderation-empty">{EMPTY[tab]}</p>
        ) : (
          <ul className="report-list" aria-label={LIST_LABELS[tab]}>
            {list.items.map((report) => (
              <ReportCard
                key={report.id}
                report={report}
                now={now}
                onSuspend={setSuspending}
                onActed={onActed}
              />
            ))}
          </ul>
        )}
        {list?.status === 'ready' && list.more === 'error' && (
          <p className="form-error" role="alert">
            Error: {loadErrorMessage(list.error)}
          </p>
        )}
        {list?.status === 'ready' && list.nextCursor && (
          <button
            type="button"
            className="button ghost wide"
            disabled={list.more === 'loading'}
            onClick={() => void loadMore(tab)}
          >
            {list.more === 'loading' ? 'Loading…' : 'Load more'}
          </button>
        )}
      </div>
      <SuspendDialog
        report={suspending}
        onClose={() => setSuspending(null)}
        onActed={onActed}
        returnFocus={panel}
      />
    </>
  );
}
