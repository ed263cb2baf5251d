import { STORAGE_KEYS } from './constants.ts';

/** Storage can throw (private mode, quota, disabled); every access here degrades to "nothing stored". */
function safe<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

export function readLocal(key: string): string | null {
  return safe(() => window.localStorage.getItem(key), null);
}

export function writeLocal(key: string, value: string): void {
  safe(() => window.localStorage.setItem(key, value), undefined);
}

export function removeLocal(key: string): void {
  safe(() => window.localStorage.removeItem(key), undefined);
}

/** The bearer token: `token` or `authToken`, in local or session storage (docs/product.md "Session and API calls"). */
export function readToken(): string | null {
  for (const store of [() => window.localStorage, () => window.sessionStorage]) {
    for (const key of [STORAGE_KEYS.token, STORAGE_KEYS.altToken]) {
      const value = safe(() => store().getItem(key), null);
      if (value) return value;
    }
  }
  return null;
}

/** Remembered sessions keep the token across browser restarts; others only for this tab's session. */
export function storeToken(token: string, remember: boolean): void {
  clearToken();
  const store = remember ? () => window.localStorage : () => window.sessionStorage;
  safe(() => store().setItem(STORAGE_KEYS.token, token), undefined);
}

export function clearToken(): void {
  for (const store of [() => window.localStorage, () => window.sessionStorage]) {
    for (const key of [STORAGE_KEYS.token, STORAGE_KEYS.altToken])
      safe(() => store().removeItem(key), undefined);
  }
}

export function tokenIsRemembered(): boolean {
  return safe(() => window.localStorage.getItem(STORAGE_KEYS.token) !== null, false);
}
