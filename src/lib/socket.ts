import { type Socket, io } from 'socket.io-client';
import {
  SOCKET_BASE_DELAY_MS,
  SOCKET_CONNECT_TIMEOUT_MS,
  SOCKET_RECONNECT_ATTEMPTS,
} from './constants.ts';
import {
  type ClientToServerEvents,
  SERVER_EVENT_SCHEMAS,
  type ServerToClientEvents,
} from '../contracts/realtime.ts';
import { API_ORIGIN } from './apiHost.ts';
import { readToken } from './storage.ts';

export type OrbitSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
type EventName = keyof ServerToClientEvents;

let socket: OrbitSocket | null = null;
let member: { id: string; username: string } | null = null;
const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
const connectHandlers = new Set<(socket: OrbitSocket) => void>();
const endedHandlers = new Set<() => void>();

function leavePresence() {
  socket?.emit('presence:leave');
}

/** The socket was closed because the page went into the back/forward cache. */
let parked = false;

/**
 * Leaving the page: presence ends; when the page is kept in the back/forward cache, the socket is
 * closed too (an open one would be cut by the browser, with an error), and opened again when the
 * page is shown from the cache (docs/decisions.md "Back/forward cache").
 */
function onPageHide(event: PageTransitionEvent) {
  leavePresence();
  if (event.persisted && socket) {
    parked = true;
    socket.disconnect();
  }
}

function onPageShow(event: PageTransitionEvent) {
  if (!event.persisted || !parked) return;
  parked = false;
  socket?.connect();
}

/**
 * One socket per tab while a member is signed in (docs/product.md "Realtime"): websocket only, credentials sent,
 * up to 10 reconnects from 800 ms, 10 s to connect; presence is joined again after every connect.
 */
export function connectSocket(user: { id: string; username: string }): OrbitSocket {
  if (socket && member?.id === user.id) return socket;
  disconnectSocket();
  member = user;
  const created: OrbitSocket = io(API_ORIGIN, {
    path: '/socket.io',
    transports: ['websocket'],
    withCredentials: true,
    auth: (callback) => callback(readToken() ? { token: readToken() } : {}),
    reconnectionAttempts: SOCKET_RECONNECT_ATTEMPTS,
    reconnectionDelay: SOCKET_BASE_DELAY_MS,
    timeout: SOCKET_CONNECT_TIMEOUT_MS,
  });
  created.on('connect', () => {
    if (member) created.emit('presence:join', { userId: member.id, username: member.username });
    for (const handler of connectHandlers) handler(created);
  });
  created.on('connect_error', (error) => console.warn('Realtime connection failed', error.message));
  created.on('disconnect', (reason) => {
    if (reason === 'io server disconnect') for (const handler of endedHandlers) handler();
  });
  for (const [event, handlers] of listeners) {
    for (const handler of handlers) created.on(event, handler);
  }
  window.addEventListener('pagehide', onPageHide);
  window.addEventListener('pageshow', onPageShow);
  socket = created;
  return created;
}

export function disconnectSocket() {
  window.removeEventListener('pagehide', onPageHide);
  window.removeEventListener('pageshow', onPageShow);
  parked = false;
  if (socket) {
    leavePresence();
    socket.disconnect();
  }
  socket = null;
  member = null;
}

/**
 * Connects again after the network came back: socket.io gives up after its last reconnect attempt
 * (a socket still retrying keeps to its own schedule).
 */
export function reconnectSocket() {
  if (socket && !socket.connected) socket.connect();
}

export function currentSocket(): OrbitSocket | null {
  return socket;
}

/**
 * A listener that hands `handler` only payloads that fit the event's schema; any other is dropped
 * with a warning, so one malformed event never breaks a screen.
 */
export function parsingListener<E extends EventName>(
  event: E,
  handler: ServerToClientEvents[E],
): (payload: unknown) => void {
  const schema = SERVER_EVENT_SCHEMAS[event];
  return (payload) => {
    const parsed = schema.safeParse(payload);
    if (parsed.success) (handler as (payload: unknown) => void)(parsed.data);
    else console.warn(`Dropped a ${event} event that does not fit`, parsed.error.issues);
  };
}

/** Listens to a server event on this tab's socket, now and after any reconnect with a new socket. */
export function onSocketEvent<E extends EventName>(
  event: E,
  handler: ServerToClientEvents[E],
): () => void {
  let set = listeners.get(event);
  if (!set) {
    set = new Set();
    listeners.set(event, set);
  }
  const listener = parsingListener(event, handler);
  set.add(listener);
  socket?.on(event, listener as never);
  return () => {
    set.delete(listener);
    socket?.off(event, listener as never);
  };
}

/**
 * Runs `handler` now if a socket is connected and again after every (re)connect, of this socket or a
 * later one: rooms are lost with a connection, so whoever joined one joins it again here.
 */
export function onSocketConnect(handler: (socket: OrbitSocket) => void): () => void {
  connectHandlers.add(handler);
  if (socket?.connected) handler(socket);
  return () => {
    connectHandlers.delete(handler);
  };
}

/**
 * Runs `handler` whenever the server ends this tab's socket on purpose: its session ended (expired,
 * signed out elsewhere, revoked by a password change; docs/decisions.md "Sockets end with their
 * session"). socket.io does not reconnect after that; the handler asks the server who is signed in.
 */
export function onSocketEnded(handler: () => void): () => void {
  endedHandlers.add(handler);
  return () => {
    endedHandlers.delete(handler);
  };
}
