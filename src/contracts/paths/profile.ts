/** A member's profile and theme, which the first page may ask for before any other page's code has arrived. */
import type { EndpointPath } from '../endpoints.paths.ts';

export const profileUpdate = {
  method: 'PATCH',
  path: '/api/auth/profile',
} as const satisfies EndpointPath;
export const themeSave = {
  method: 'PUT',
  path: '/api/users/theme',
} as const satisfies EndpointPath;
export const profile = {
  method: 'GET',
  path: '/api/users/profile/:username',
  offline: true,
} as const satisfies EndpointPath;
