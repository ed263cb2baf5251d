/** The session, open to the signed out: signing up, in and out, the session check and the password reset. */
import type { EndpointPath } from '../endpoints.paths.ts';

export const signup = { method: 'POST', path: '/api/auth/signup' } as const satisfies EndpointPath;
export const login = { method: 'POST', path: '/api/auth/login' } as const satisfies EndpointPath;
export const logout = { method: 'POST', path: '/api/auth/logout' } as const satisfies EndpointPath;
export const me = {
  method: 'GET',
  path: '/api/auth/me',
  offline: true,
  neverKept: true,
} as const satisfies EndpointPath;
export const tokenBridge = {
  method: 'GET',
  path: '/api/auth/token-bridge',
  neverKept: true,
} as const satisfies EndpointPath;
export const usernameAvailable = {
  method: 'GET',
  path: '/api/check-username',
  aliasOf: 'checkUsername',
  neverKept: true,
} as const satisfies EndpointPath;
export const forgotQuestion = {
  method: 'POST',
  path: '/api/auth/forgot-password/question',
} as const satisfies EndpointPath;
export const forgotReset = {
  method: 'POST',
  path: '/api/auth/forgot-password/reset',
} as const satisfies EndpointPath;
