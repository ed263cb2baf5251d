/**
 * Lists derived from the endpoint table's paths (`endpoints.paths.ts`), without zod: the calls the
 * service worker keeps for use offline and the answers never kept.
 */
import type { EndpointPath } from './endpoints.paths.ts';
import * as PATHS from './endpoints.paths.ts';

const ALL: readonly EndpointPath[] = Object.values(PATHS);

/** A path pattern as a regular expression over a URL's pathname: each `:name` is one segment. */
function pathPattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}

/** The GET calls whose last answer the service worker keeps for use offline. */
export const OFFLINE_PATHS: readonly RegExp[] = ALL.filter(
  (entry) => entry.offline && entry.method === 'GET',
).map((entry) => pathPattern(entry.path));

/** The path patterns whose answers are never kept. */
export const NEVER_KEPT_PATHS: ReadonlySet<string> = new Set(
  ALL.filter((entry) => entry.neverKept).map((entry) => entry.path),
);

/** The writes the installed app may queue offline: method and path pattern (`outbox`). */
export const OUTBOX_CALLS: readonly { method: string; path: RegExp }[] = ALL.filter(
  (entry) => entry.outbox,
).map((entry) => ({ method: entry.method, path: pathPattern(entry.path) }));

/**
 * The path parameters of `entry` in a called path (query left aside), or null when the path is not
 * one of `entry`'s.
 */
export function paramsOf(entry: EndpointPath, calledPath: string): Record<string, string> | null {
  const names = entry.path.split('/');
  const parts = (calledPath.split('?')[0] ?? '').split('/');
  if (names.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (const [index, name] of names.entries()) {
    const part = parts[index] ?? '';
    if (name.startsWith(':')) {
      if (!part) return null;
      try {
        params[name.slice(1)] = decodeURIComponent(part);
      } catch {
        return null;
      }
    } else if (name !== part) return null;
  }
  return params;
}
