/**
 * What the shell and the profile page import that costs the most to evaluate: the contracts,
 * whose schemas are built as their modules run, and the realtime socket's client. warmRoute.ts
 * imports them one per task before the route's own chunks, so no single task runs them all:
 * together they would hold a phone's main thread for one long task right after the first screen
 * has painted. A module of its own, so the start-up chunk carries one import, not seven.
 */
export const ROUTE_PARTS: readonly (() => Promise<unknown>)[] = [
  () => import('../contracts/user.ts'),
  () => import('../contracts/notifications.ts'),
  () => import('../contracts/safety.ts'),
  () => import('../contracts/friends.ts'),
  () => import('../contracts/gallery.ts'),
  () => import('../contracts/realtime.ts'),
  () => import('../lib/socket.ts'),
];
