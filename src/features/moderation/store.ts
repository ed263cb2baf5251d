import { create } from 'zustand';
import {
  type ModerationReport,
  REPORT_REASONS,
  type ReportReason,
  type ReportStatus,
  type SuspendedMember,
} from '../../contracts/safety.ts';
import { HttpError } from '../../lib/http.ts';
import { joinMemberState } from '../../lib/memberState.ts';
import { type PagedList, createPager, createServerState } from '../../lib/serverState.ts';
import { moderationApi } from './api.ts';
import { resolvedTogether } from './logic.ts';

type ModerationAction = 'dismiss' | 'removePhoto' | 'suspend';

/** How an action ended: done, refused by the server, or the server was not reached. */
export type ActionOutcome = 'done' | 'refused' | 'unreachable';

/** One list of reports, paged as the server hands it out; absent until first asked for. */
type ReportList = PagedList<ModerationReport>;

/** The suspended members, as last read; absent until first asked for. */
type SuspendedState =
  | { status: 'loading' }
  | { status: 'ready'; members: SuspendedMember[] }
  | { status: 'error'; error: unknown };

interface ModerationState {
  lists: Partial<Record<ReportStatus, ReportList>>;
  /** The server says this member does not moderate (any more). */
  forbidden: boolean;
  /** Why the last action failed, shown above the list. */
  notice: string | null;
  /** Reports (by id) and suspended members (by `member:` and id) with an action on its way. */
  busy: Record<string, true>;
  suspended: SuspendedState | null;
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
  /** Undoes `Dismiss`: the report is open again and back in the open list. */
  undoDismiss: (report: ModerationReport) => Promise<ActionOutcome>;
  loadSuspended: () => Promise<void>;
  /** Lifts a member's suspension; they leave the list. */
  lift: (member: SuspendedMember) => Promise<ActionOutcome>;
  reset: () => void;
}

/** The busy key of a suspended member, apart from report ids. */
export const memberBusyKey = (member: SuspendedMember) => `member:${member.id}`;

const asReason = (text: string, fallback: ReportReason): ReportReason =>
  (REPORT_REASONS as readonly string[]).includes(text) ? (text as ReportReason) : fallback;

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
  removePhoto: (report: ModerationReport, reason: string) =>
    moderationApi.removePhoto(report.id, asReason(reason, report.reason)),
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

  /**
   * Runs a call for the report or member `key`, once at a time; a failure is said above the list
   * in the server's words.
   */
  const run = async (key: string, call: () => Promise<void>): Promise<ActionOutcome> => {
    if (get().busy[key]) return 'refused';
    set((state) => ({ busy: { ...state.busy, [key]: true }, notice: null }));
    const ticket = server.current('member');
    try {
      await call();
      return 'done';
    } catch (error) {
      if (!ticket.current) return 'refused';
      if (isForbidden(error)) set({ forbidden: true });
      set({ notice: actionErrorText(error) });
      return error instanceof HttpError && error.status === 0 ? 'unreachable' : 'refused';
    } finally {
      set((state) => {
        const { [key]: _done, ...busy } = state.busy;
        return { busy };
      });
    }
  };

  return {
    lists: {},
    forbidden: false,
    notice: null,
    busy: {},
    suspended: null,

    load: (status) => pages.first(status),

    async loadMore(status) {
      await pages.next(status);
    },

    async act(action, report, reason = '') {
      const ticket = server.current('member');
      const outcome = await run(report.id, async () => {
        const { report: resolved } = await CALLS[action](report, reason);
        if (!ticket.current) return;
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
      });
      // The report may have been resolved elsewhere meanwhile: show the list as it now is.
      if (outcome !== 'done' && ticket.current) void get().load('open');
      return outcome;
    },

    async undoDismiss(report) {
      const ticket = server.current('member');
      const outcome = await run(report.id, async () => {
        const { report: reopened } = await moderationApi.reopen(report.id);
        pages.forget('resolved');
        set((state) => {
          const { resolved: _stale, open, ...lists } = state.lists;
          if (!open) return { lists };
          // Back in its place: open reports are newest first, and ids grow with time.
          const items = [...open.items.filter((other) => other.id !== reopened.id), reopened].sort(
            (a, b) => Number(b.id) - Number(a.id),
          );
          return { lists: { ...lists, open: { ...open, items } } };
        });
      });
      if (outcome !== 'done' && ticket.current) void get().load('open');
      return outcome;
    },

    async loadSuspended() {
      const ticket = server.claim('suspended');
      if (get().suspended?.status !== 'ready') set({ suspended: { status: 'loading' } });
      try {
        const { members } = await moderationApi.suspended();
        if (ticket.current) set({ suspended: { status: 'ready', members }, forbidden: false });
      } catch (error) {
        if (!ticket.current) return;
        if (isForbidden(error)) set({ forbidden: true });
        set({ suspended: { status: 'error', error } });
      }
    },

    async lift(member) {
      const outcome = await run(memberBusyKey(member), async () => {
        await moderationApi.lift(member.id);
        set((state) =>
          state.suspended?.status === 'ready'
            ? {
                suspended: {
                  status: 'ready',
                  members: state.suspended.members.filter((other) => other.id !== member.id),
                },
              }
            : {},
        );
      });
      // Lifted elsewhere a moment before, say: the list as it now is.
      if (outcome === 'refused') void get().loadSuspended();
      return outcome;
    },

    reset() {
      server.reset();
      set({ lists: {}, forbidden: false, notice: null, busy: {}, suspended: null });
    },
  };
});

joinMemberState('moderation', { reset: () => useModeration.getState().reset() });
