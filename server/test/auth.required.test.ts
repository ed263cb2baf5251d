/** Every call that needs a session refuses one without it (docs/product.md "Session and API calls"). */
import { expect, it } from 'vitest';
import { forEachApp } from './helpers.ts';

const NEEDS_A_SESSION: {
  method: 'GET' | 'PATCH' | 'PUT' | 'POST';
  url: string;
  payload?: object;
}[] = [
  { method: 'GET', url: '/api/auth/check-username?username=anything' },
  { method: 'PATCH', url: '/api/auth/profile', payload: { firstName: 'X' } },
  {
    method: 'PATCH',
    url: '/api/auth/password',
    payload: { currentPassword: 'Orbit#Pass1', newPassword: 'Nebula#2025x' },
  },
  { method: 'GET', url: '/api/users/me' },
  { method: 'PUT', url: '/api/users/theme', payload: { theme: 'dark' } },
  { method: 'GET', url: '/api/notifications' },
];

forEachApp((t) => {
  it.each(NEEDS_A_SESSION)('$method $url answers 401 without a session', async (call) => {
    const response = await t.app.inject(call);

    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: 'Please sign in.' });
  });
});
