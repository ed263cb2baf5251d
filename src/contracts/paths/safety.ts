/** Blocking, reports and moderation. */
import type { EndpointPath } from '../endpoints.paths.ts';

export const blockList = {
  method: 'GET',
  path: '/api/users/blocks',
} as const satisfies EndpointPath;
export const block = { method: 'POST', path: '/api/users/blocks' } as const satisfies EndpointPath;
export const unblock = {
  method: 'DELETE',
  path: '/api/users/blocks/:userId',
} as const satisfies EndpointPath;
export const report = { method: 'POST', path: '/api/reports' } as const satisfies EndpointPath;
export const myOpenReports = {
  method: 'GET',
  path: '/api/reports/mine',
  neverKept: true,
} as const satisfies EndpointPath;
export const moderationReports = {
  method: 'GET',
  path: '/api/moderation/reports',
} as const satisfies EndpointPath;
export const moderationDismiss = {
  method: 'POST',
  path: '/api/moderation/reports/:id/dismiss',
} as const satisfies EndpointPath;
export const moderationRemovePhoto = {
  method: 'POST',
  path: '/api/moderation/reports/:id/remove-photo',
} as const satisfies EndpointPath;
export const moderationSuspend = {
  method: 'POST',
  path: '/api/moderation/reports/:id/suspend',
} as const satisfies EndpointPath;
export const moderationReopen = {
  method: 'POST',
  path: '/api/moderation/reports/:id/reopen',
} as const satisfies EndpointPath;
export const moderationSuspended = {
  method: 'GET',
  path: '/api/moderation/suspended',
} as const satisfies EndpointPath;
export const moderationLift = {
  method: 'DELETE',
  path: '/api/moderation/suspended/:userId',
} as const satisfies EndpointPath;
