import { create } from 'zustand';
import type { ModerationReport, ReportStatus } from '../../contracts/safety.ts';
import { HttpError } from '../../lib/http.ts';
import { loadErrorMessage } from '../notifications/logic.ts';
import { moderationApi } from './api.ts';
import { resolvedTogether, withPage } from './logic.ts';

export type ModerationAction = 'dismiss' | 'removePhoto' | 'suspend';

/** How an action ended: done, refused by the server, or the server was not reached. */
export type ActionOutcome = 'done' | 'refused' | 'unreachable';

export interface ReportList {
  reports: ModerationReport[];
  nextCursor: string | null;
  /** `idle` until first asked for; `loading` covers the first page only. */
  state: 'idle' | 'loading' | 'loaded' | 'error';
  /** A later page is on its way. */
  loadingMore: boolean;
  error: string | null;
}

interface ModerationState {
  lists: Record<ReportStatus, ReportList>;
  /** The server says this member does not moderate (any more). */
  forbidden: boolean;
  /** Why the last action failed, shown above the list. */
  notice: string | null;
  /** Reports with an action on its way. */
  busy: Record<string, true>;
  /** The first page of `status`, afresh. */
  load: (status: ReportStatus) => Promise<void>;
  /** The page after the last one loaded, from the list's `nextCursor`. */
  loadMore: (status: ReportStatus) => Promise<void>;
  /** Acts on an open report; on failure says why and loads the open reports again. */
  act: (
    action: ModerationAction,
    report: ModerationReport,
    reason?: string,
  ) => Promise<ActionOutcome>;
  reset: () => void;
}

const emptyList = (): ReportList => ({
  reports: [],
  nextCursor: null,
  state: 'idle',
  loadingMore: false,
  error: null,
});

const emptyLists = (): Record<ReportStatus, ReportList> => ({
  open: emptyList(),
  resolved: emptyList(),
});

/** What the moderator reads when an action fails: the server's words when it gave some. */
export const ACTION_FAILED = 'Something went wrong. Try again.';

function actionErrorText(error: unknown): string {
  return error instanceof HttpError && error.serverMessage ? error.serverMessage : ACTION_FAILED;
}

const isForbidden = (error: unknown) => error instanceof HttpError && error.status === 403;

/**
 * Each list's latest request: an answer to an older one (a tab chosen again, a refresh after an
 * action) is dropped, so pages of two loads never mix.
 */
const generation: Record<ReportStatus, number> = { open: 0, resolved: 0 };

const CALLS = {
  dismiss: (report: ModerationReport) => moderationApi.dismiss(report.id),
  removePhoto: (report: ModerationReport) => moderationApi.removePhoto(report.id),
  suspend: (report: ModerationReport, reason: string) => moderationApi.suspend(report.id, reason),
} as const;

/** Reports for moderators (docs/product.md "Moderation"): the open and resolved lists, paged. */
export const useModeration = create<ModerationState>()((set, get) => {
  const patchList = (status: ReportStatus, patch: Partial<ReportList>) =>
    set((state) => ({
      lists: { ...state.lists, [status]: { ...state.lists[status], ...patch } },
    }));

  const fetchPage = async (status: ReportStatus, before: string | null) => {
    const ticket = ++generation[status];
    try {
      const page = await moderationApi.page(status, before);
      if (ticket !== generation[status]) return;
      const reports = before ? withPage(get().lists[status].reports, page.reports) : page.reports;
      patchList(status, {
        reports,
        nextCursor: page.nextCursor,
        state: 'loaded',
        loadingMore: false,
        error: null,
      });
      set({ forbidden: false });
    } catch (error) {
      if (ticket !== generation[status]) return;
      if (isForbidden(error)) set({ forbidden: true });
      // A failed later page keeps what is shown; a failed first page shows the error instead.
      patchList(
        status,
        before
          ? { loadingMore: false, error: loadErrorMessage(error) }
          : { state: 'error', loadingMore: false, error: loadErrorMessage(error) },
      );
    }
  };

  return {
    lists: emptyLists(),
    forbidden: false,
    notice: null,
    busy: {},

    async load(status) {
      patchList(status, {
        state: get().lists[status].state === 'loaded' ? 'loaded' : 'loading',
        loadingMore: false,
      });
      await fetchPage(status, null);
    },

    async loadMore(status) {
      const list = get().lists[status];
      if (!list.nextCursor || list.loadingMore || list.state !== 'loaded') return;
      patchList(status, { loadingMore: true, error: null });
      await fetchPage(status, list.nextCursor);
    },

    async act(action, report, reason = '') {
      if (get().busy[report.id]) return 'refused';
      set((state) => ({ busy: { ...state.busy, [report.id]: true }, notice: null }));
      let outcome: ActionOutcome;
      try {
        const { report: resolved } = await CALLS[action](report, reason);
        const open = get().lists.open;
        patchList('open', {
          reports: open.reports.filter((other) => !resolvedTogether(resolved, report, other)),
        });
        // Read afresh when next shown: it now starts with this one.
        generation.resolved++;
        patchList('resolved', emptyList());
        outcome = 'done';
      } catch (error) {
        if (isForbidden(error)) set({ forbidden: true });
        set({ notice: actionErrorText(error) });
        outcome = error instanceof HttpError && error.status === 0 ? 'unreachable' : 'refused';
        // The report may have been resolved elsewhere meanwhile: show the list as it now is.
        void get().load('open');
      } finally {
        set((state) => {
          const { [report.id]: _done, ...busy } = state.busy;
          return { busy };
        });
      }
      return outcome;
    },

    reset() {
      generation.open++;
      generation.resolved++;
      set({ lists: emptyLists(), forbidden: false, notice: null, busy: {} });
    },
  };
});
