import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Tabs, tabId } from '../../components/Tabs.tsx';
import { Toast } from '../../components/Toast.tsx';
import type { ModerationReport, ReportStatus } from '../../contracts/safety.ts';
import { useSession } from '../auth/store.ts';
import { useNow } from '../notifications/hooks.ts';
import { whileShown } from '../../lib/serverState.ts';
import { loadErrorMessage } from '../notifications/logic.ts';
import { RemovePhotoDialog } from './RemovePhotoDialog.tsx';
import { ReportCard, type ReportCardProps } from './ReportItem.tsx';
import { type ActionOutcome, useModeration } from './store.ts';
import { SuspendDialog } from './SuspendDialog.tsx';
import { SuspendedPanel } from './SuspendedPanel.tsx';
import './moderation.css';

const PANEL_ID = 'reports-panel';
/** Relative times are read again this often. */
const CLOCK_MS = 30_000;

/** The tabs: the two lists of reports, and the members suspended. */
type Board = ReportStatus | 'suspended';

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

/** How long `Undo` stays offered after `Dismiss`, unless focus is on it. */
const UNDO_MS = 8_000;

function ReportsBoard() {
  const [tab, setTab] = useState<Board>('open');
  const [suspending, setSuspending] = useState<ModerationReport | null>(null);
  const [removing, setRemoving] = useState<ModerationReport | null>(null);
  const panel = useRef<HTMLDivElement>(null);
  /** Where focus goes once the remove dialog closes: its opener, or the list once it acted. */
  const afterRemove = useRef<HTMLElement | null>(null);
  const notice = useModeration((state) => state.notice);
  const load = useModeration((state) => state.load);
  const loadSuspended = useModeration((state) => state.loadSuspended);
  const undo = useUndo();

  useEffect(() => {
    const read = () => void (tab === 'suspended' ? loadSuspended() : load(tab));
    read();
    // Back online, the list may have been a saved copy: it is read again.
    return whileShown(read, { live: false });
  }, [tab, load, loadSuspended]);

  const select = (next: Board) => {
    // The tab already shown is read again.
    if (next !== tab) setTab(next);
    else if (next === 'suspended') void loadSuspended();
    else void load(next);
  };
  // The report acted on may have left the list, and focus with it: the list takes focus.
  const onActed = useCallback((outcome: ActionOutcome) => {
    if (outcome !== 'unreachable') panel.current?.focus();
  }, []);
  const onRemoved = useCallback((outcome: ActionOutcome) => {
    if (outcome !== 'unreachable') afterRemove.current = panel.current;
  }, []);
  const onDismissed = useCallback(
    (report: ModerationReport, outcome: ActionOutcome) => {
      onActed(outcome);
      if (outcome === 'done') undo.offer(report);
    },
    [onActed, undo],
  );

  return (
    <>
      {notice && (
        <p className="form-error" role="alert">
          {notice}
        </p>
      )}
      <Tabs
        label="Reports"
        tabs={{ open: 'Open', resolved: 'Resolved', suspended: 'Suspended' }}
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
        {tab === 'suspended' ? (
          <SuspendedPanel returnFocus={panel} />
        ) : (
          <ReportsPanel
            status={tab}
            onSuspend={setSuspending}
            onRemovePhoto={(report) => {
              afterRemove.current =
                document.activeElement instanceof HTMLElement ? document.activeElement : null;
              setRemoving(report);
            }}
            onDismissed={onDismissed}
          />
        )}
      </div>
      <SuspendDialog
        report={suspending}
        onClose={() => setSuspending(null)}
        onActed={onActed}
        returnFocus={panel}
      />
      <RemovePhotoDialog
        report={removing}
        onClose={() => setRemoving(null)}
        onActed={onRemoved}
        returnFocus={afterRemove}
      />
      <Toast
        message={undo.report ? 'Report dismissed' : null}
        action={
          undo.report && {
            label: 'Undo',
            onClick: () => {
              const report = undo.report;
              undo.clear();
              // The toast and its button go: the list, where the report comes back, takes focus.
              panel.current?.focus();
              if (report) void useModeration.getState().undoDismiss(report);
            },
          }
        }
      />
    </>
  );
}

/**
 * The report last dismissed, offered for `Undo` for UNDO_MS; while focus is on the toast it stays,
 * so a keyboard reaches it in time.
 */
function useUndo() {
  const [report, setReport] = useState<ModerationReport | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const clear = useCallback(() => {
    clearTimeout(timer.current);
    setReport(null);
  }, []);
  const offer = useCallback((next: ModerationReport) => {
    clearTimeout(timer.current);
    setReport(next);
    const expire = () => {
      if (document.activeElement?.closest('.toast')) timer.current = setTimeout(expire, UNDO_MS);
      else setReport(null);
    };
    timer.current = setTimeout(expire, UNDO_MS);
  }, []);
  useEffect(() => () => clearTimeout(timer.current), []);
  return useMemo(() => ({ report, offer, clear }), [report, offer, clear]);
}

function ReportsPanel({
  status,
  onSuspend,
  onRemovePhoto,
  onDismissed,
}: { status: ReportStatus } & Pick<
  ReportCardProps,
  'onSuspend' | 'onRemovePhoto' | 'onDismissed'
>) {
  const list = useModeration((state) => state.lists[status]);
  const loadMore = useModeration((state) => state.loadMore);
  const now = useNow(true, CLOCK_MS);
  return (
    <>
      {!list || list.status === 'loading' ? (
        <p role="status">Loading…</p>
      ) : list.status === 'error' || list.status === 'missing' ? (
        <p className="form-error" role="alert">
          Error: {loadErrorMessage(list.error)}
        </p>
      ) : list.items.length === 0 ? (
        <p className="moderation-empty">{EMPTY[status]}</p>
      ) : (
        <ul className="report-list" aria-label={LIST_LABELS[status]}>
          {list.items.map((report) => (
            <ReportCard
              key={report.id}
              report={report}
              now={now}
              onSuspend={onSuspend}
              onRemovePhoto={onRemovePhoto}
              onDismissed={onDismissed}
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
          onClick={() => void loadMore(status)}
        >
          {list.more === 'loading' ? 'Loading…' : 'Load more'}
        </button>
      )}
    </>
  );
}
