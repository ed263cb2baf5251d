/**
 * What the member has reported that no moderator has decided yet (`GET /api/reports/mine`), so a
 * `⋯` menu says `Reported` instead of offering a report the server would refuse.
 */
import { useEffect } from 'react';
import type { MenuAction } from '../../components/ActionMenu.tsx';
import { REPORT_DUPLICATE, type ReportKind } from '../../contracts/safety.ts';
import { createEntryStore } from '../../lib/serverState.ts';
import { safetyApi } from './api.ts';

/** The one key: the signed-in member's own reports. */
const OWN = 'me';
const REPORTED_TTL_MS = 60_000;

const keyOf = (kind: ReportKind, targetId: string) => `${kind}:${targetId}`;

const store = createEntryStore<{ reported: string[] }>('reported', {
  reported: {
    fetch: async () =>
      (await safetyApi.myOpenReports()).reports.map((open) => keyOf(open.kind, open.targetId)),
    ttlMs: REPORTED_TTL_MS,
  },
});
const reported = store.entries.reported;

/**
 * The `⋯` menu's report entry for a photo or a member: `Report`, or `Reported` (doing nothing,
 * titled `You have already reported this.`) while the member's report of it is open. The list is
 * read while a menu shows the entry.
 */
export function useReportAction(kind: ReportKind, targetId: string, open: () => void): MenuAction {
  useEffect(() => reported.show(OWN), []);
  const done = store.use(
    (state) => state.reported[OWN]?.value?.includes(keyOf(kind, targetId)) ?? false,
  );
  return done
    ? { label: 'Reported', run: open, done: { title: REPORT_DUPLICATE } }
    : { label: 'Report', run: open, needsNetwork: true };
}

/** A report sent, or one the server says is already open: the menus say `Reported` from now on. */
export function noteReported(kind: ReportKind, targetId: string): void {
  reported.patch(OWN, (keys) => [
    ...keys.filter((key) => key !== keyOf(kind, targetId)),
    keyOf(kind, targetId),
  ]);
}
