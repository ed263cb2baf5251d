import { create } from 'zustand';
import { CHANNELS, STORAGE_KEYS, WINDOW_EVENTS } from '../../lib/constants.ts';
import type { LoginBody } from '../../contracts/auth.ts';
import { openChannel } from '../../lib/crossTab.ts';
import { BOOT_ELEMENT_ID } from '../../contracts/constants.ts';
import * as PATHS from '../../contracts/paths/session.ts';
import { HttpError, request } from '../../lib/http.ts';
import { leaveMemberState, memberStateSettled, resetMemberState } from '../../lib/memberState.ts';
import { clearToken, storeToken } from '../../lib/storage.ts';
import { type CurrentUser, normaliseUser } from '../../contracts/readers/user.ts';

type SessionStatus = 'loading' | 'signedIn' | 'signedOut';

export const AUTH_UNREACHABLE = 'Failed to reach auth service';

/** The session's calls, with the schemas they bring: loaded when first made, as the first page makes none. */
export const sessionCalls = () => import('./api.ts').then((module) => module.authApi);

/**
 * The session check by the `me` entry's path and reader (src/contracts/endpoints/session.ts),
 * without its schema module, so that a first page loads no schema library.
 */
async function askMe(): Promise<CurrentUser | null> {
  return normaliseUser(await request(PATHS.me.method, PATHS.me.path, { cache: 'no-store' }));
}

/**
 * The member a signed-in profile's document named (the `GET /api/auth/me` answer, read by the
 * same reader), once: later checks ask the server. Undefined when the document named nobody or
 * could not be read.
 */
function bootMe(): CurrentUser | undefined {
  const element = document.getElementById(BOOT_ELEMENT_ID);
  if (!element) return undefined;
  element.remove();
  try {
    return normaliseUser(JSON.parse(element.textContent ?? '')) ?? undefined;
  } catch {
    return undefined;
  }
}

interface SessionState {
  status: SessionStatus;
  user: CurrentUser | null;
  error: string | null;
  /**
   * GET /api/auth/me: the session is loading until it answers (docs/product.md "Session and API
   * calls"); a signed-in profile's document names the member already, and is read instead.
   */
  load: () => Promise<void>;
  /** Sets the member here and tells the other tabs. */
  setUser: (user: CurrentUser | null) => void;
  login: (body: LoginBody) => Promise<CurrentUser>;
  signup: (form: FormData, remember: boolean) => Promise<CurrentUser>;
  logout: () => Promise<void>;
}

type AuthMessage = { type: 'user'; user: CurrentUser } | { type: 'logout' };

let channel: ReturnType<typeof openChannel> | null = null;
function broadcast(message: AuthMessage) {
  channel?.post(message);
}

function signedIn(user: CurrentUser) {
  return { status: 'signedIn' as const, user, error: null };
}
const signedOut = { status: 'signedOut' as const, user: null };

export const useSession = create<SessionState>()((set, get) => ({
  status: 'loading',
  user: null,
  error: null,

  async load() {
    const boot = bootMe();
    if (boot) {
      set(signedIn(boot));
      return;
    }
    try {
      const user = await askMe();
      set(user ? signedIn(user) : { ...signedOut, error: null });
    } catch (error) {
      if (error instanceof HttpError && error.status === 0) {
        set({ ...signedOut, error: AUTH_UNREACHABLE });
      } else {
        if (!(error instanceof HttpError && error.status === 401))
          console.warn('Auth check failed', error);
        set({ ...signedOut, error: null });
      }
    }
  },

  setUser(user) {
    if (user) {
      set(signedIn(user));
      broadcast({ type: 'user', user });
      window.dispatchEvent(new CustomEvent(WINDOW_EVENTS.userUpdated, { detail: user }));
    } else {
      set({ ...signedOut, error: null });
    }
  },

  async login(body) {
    const { user, token } = await (await sessionCalls()).login(body);
    if (token) storeToken(token, body.remember ?? false);
    if (!user) throw new Error('Login failed.');
    get().setUser(user);
    return user;
  },

  async signup(form, remember) {
    const answer = await (await sessionCalls()).signup(form);
    if (answer.token) storeToken(answer.token, remember);
    // docs/product.md "Session and API calls": the signup answer is followed by GET /api/auth/me.
    await get().load();
    const user = get().user ?? answer.user;
    if (!user) throw new Error('Signup failed.');
    get().setUser(user);
    return user;
  },

  async logout() {
    // What needs the session still (the push device forgotten on the server) goes first.
    const user = get().user;
    if (user) await leaveMemberState(user.id);
    await sessionCalls()
      .then((authApi) => authApi.logout())
      .catch(() => undefined);
    clearToken();
    set({ ...signedOut, error: null });
    broadcast({ type: 'logout' });
    window.dispatchEvent(new Event(WINDOW_EVENTS.logout));
    // Answers once nothing of the member is left here (the stores, their saved copies).
    await memberStateSettled();
  },
}));

let starting: Promise<void> | null = null;

/**
 * The page's first session check, once: src/main.tsx starts it before React renders, so the
 * session (or its saved copy offline) is on its way while the first render runs, and the app's
 * start asks for the same one.
 */
export function startSession(): Promise<void> {
  starting ??= useSession.getState().load();
  return starting;
}

/**
 * One reset (docs/decisions.md "One reset"): whenever the member signed in here stops being the one
 * signed in (logout here or in another tab, the account deleted, a suspension or any other end of
 * the session the server reports), every store of member state empties at once, before anything
 * renders for whoever comes next. Their saved copies go too unless the server merely could not be
 * reached.
 */
useSession.subscribe((state, previous) => {
  const left = previous.user;
  if (!left || state.user?.id === left.id) return;
  void resetMemberState({ memberId: left.id, ended: state.error === null });
});

/** Applies what another tab said; never echoes it back. */
export function receiveAuthMessage(data: unknown) {
  const message = data as Partial<AuthMessage> | null;
  if (message?.type === 'logout') {
    clearToken();
    useSession.setState({ ...signedOut, error: null });
  } else if (message?.type === 'user') {
    const user = normaliseUser({ user: message.user });
    if (user) useSession.setState(signedIn(user));
  }
}

/** Wires the session to the other tabs: BroadcastChannel `orbit:auth`, window events and storage events. */
export function connectSessionAcrossTabs(): () => void {
  channel = openChannel(CHANNELS.auth, receiveAuthMessage);
  const onStorage = (event: StorageEvent) => {
    // Another tab removed the token: that tab logged out.
    if (event.key === STORAGE_KEYS.token && event.newValue === null && useSession.getState().user) {
      receiveAuthMessage({ type: 'logout' });
    }
  };
  const onUserUpdated = (event: Event) => {
    const user = normaliseUser({ user: (event as CustomEvent<unknown>).detail });
    if (user) useSession.setState(signedIn(user));
  };
  window.addEventListener('storage', onStorage);
  window.addEventListener(WINDOW_EVENTS.userUpdated, onUserUpdated);
  return () => {
    channel?.close();
    channel = null;
    window.removeEventListener('storage', onStorage);
    window.removeEventListener(WINDOW_EVENTS.userUpdated, onUserUpdated);
  };
}
