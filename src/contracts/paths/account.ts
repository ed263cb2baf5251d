/** The member's own account: settings checks, password, leaving, the export. */
import type { EndpointPath } from '../endpoints.paths.ts';

export const checkUsername = {
  method: 'GET',
  path: '/api/auth/check-username',
} as const satisfies EndpointPath;
export const passwordChange = {
  method: 'PATCH',
  path: '/api/auth/password',
} as const satisfies EndpointPath;
export const accountDelete = {
  method: 'DELETE',
  path: '/api/auth/account',
} as const satisfies EndpointPath;
export const accountExport = {
  method: 'GET',
  path: '/api/auth/export',
  neverKept: true,
} as const satisfies EndpointPath;
export const usersMe = {
  method: 'GET',
  path: '/api/users/me',
  aliasOf: 'me',
} as const satisfies EndpointPath;
export const themeSaveMe = {
  method: 'PUT',
  path: '/api/users/me',
  aliasOf: 'themeSave',
} as const satisfies EndpointPath;
