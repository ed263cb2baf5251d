import { create } from 'zustand';
import type { ModerationReport, ReportStatus } from '../../contracts/safety.ts';
import { HttpError } from '../../lib/http.ts';
import { joinMemberState } from '../../lib/memberState.ts';
import { type PagedList, createPager, createServerState } from '../../lib/serverState.ts';
import { moderationApi } from './api.ts';
import { resolvedTogether } from './logic.ts';

export type ModerationAction = 'dismiss' | 'removePhoto' | 'suspend';

/** How an action ended: done, refused by the server, or the server was not reached. */
export type ActionOutcome = 'done' | 'refused' | 'unreachable';

/** One list of reports, paged as the server hands it out; absent until first asked for. */
type ReportList = PagedList<ModerationReport>;

interface ModerationState {
  lists: Partial<Record<ReportStatus, ReportList>>;
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

/** What the moderator reads when an action fails: the server's words when it gave some. */
export const ACTION_FAILED = 'Something went wrong. Try again.';

function actionErrorText(error: unknown): string {
  return error instanceof HttpError && error.serverMessage ? error.serverMessage : ACTION_FAILED;
}

const isForbidden = (error: unknown) => error instanceof HttpError && error.status === 403;

/**
 * The lists' requests: an answer to an older one (a tab chosen again, a refresh after an action)
 * is dropped, so pages of two loads never mix, and none lands after the reset.
 */
const server = createServerState();

const CALLS = {
  dismiss: (report: ModerationReport) => moderationApi.dismiss(report.id),
  removePhoto: (report: ModerationReport) => moderationApi.removePhoto(report.id),
  suspend: (report: ModerationReport, reason: string) => moderationApi.suspend(report.id, reason),
} as const;

/** Reports for moderators (docs/product.md "Moderation"): the open and resolved lists, paged. */
export const useModeration = create<ModerationState>()((set, get) => {
  const pages = createPager<ModerationReport>(server, {
    read: (status) => get().lists[status as ReportStatus],
    write: (status, list) => set((state) => ({ lists: { ...state.lists, [status]: list } })),
    fetch: async (status, before) => {
      const ticket = server.current('member');
      try {
        const page = await moderationApi.page(status as ReportStatus, before);
        if (ticket.current) set({ forbidden: false });
        return { items: page.reports, nextCursor: page.nextCursor };
      } catch (error) {
        if (ticket.current && isForbidden(error)) set({ forbidden: true });
        throw error;
      }
    },
    idOf: (report) => report.id,
  });

  return {
    lists: {},
    forbidden: false,
    notice: null,
    busy: {},

    load: (status) => pages.first(status),

    async loadMore(status) {
      await pages.next(status);
    },

    async act(action, report, reason = '') {
      if (get().busy[report.id]) return 'refused';
      set((state) => ({ busy: { ...state.busy, [report.id]: true }, notice: null }));
      const ticket = server.current('member');
      let outcome: ActionOutcome;
      try {
        const { report: resolved } = await CALLS[action](report, reason);
        if (!ticket.current) return 'done';
        const open = get().lists.open;
        // Read afresh when next shown: it now starts with this one.
        pages.forget('resolved');
        set((state) => {
          const { resolved: _stale, ...lists } = state.lists;
          return {
            lists: open
              ? {
                  ...lists,
                  open: {
                    ...open,
                    items: open.items.filter((other) => !resolvedTogether(resolved, report, other)),
                  },
                }
              : lists,
          };
        });
        outcome = 'done';
      } catch (error) {
        if (!ticket.current) return 'refused';
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
      server.reset();
      set({ lists: {}, forbidden: false, notice: null, busy: {} });
    },
  };
});

joinMemberState('moderation', { reset: () => useModeration.getState().reset() });
