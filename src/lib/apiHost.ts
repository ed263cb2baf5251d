/** Where the API lives (docs/product.md "Session and API calls"). */
export interface PageLocation {
  protocol: string;
  hostname: string;
  origin: string;
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
const IP_ADDRESS = /^\d{1,3}(\.\d{1,3}){3}$/;

const LOCAL_API_PORT = 5000;

/**
 * The build setting wins ('self' means the page's own origin); otherwise a page served locally talks
 * to the local server on port 5000, and a public page to the `api.` subdomain of its domain.
 */
export function resolveApiOrigin(setting: string, page: PageLocation): string {
  const chosen = setting.trim();
  if (chosen === 'self') return page.origin;
  if (chosen) return chosen.replace(/\/+$/, '');
  if (LOCAL_HOSTS.has(page.hostname) || page.hostname.endsWith('.localhost')) {
    return `${page.protocol}//${page.hostname}:${LOCAL_API_PORT}`;
  }
  // A bare IP address has no subdomains; it can only be its own API host.
  if (IP_ADDRESS.test(page.hostname)) return page.origin;
  return `${page.protocol}//api.${page.hostname.replace(/^www\./, '')}`;
}

export const API_ORIGIN = resolveApiOrigin(import.meta.env.VITE_API_ORIGIN ?? '', window.location);

export function apiUrl(path: string): string {
  return `${API_ORIGIN}${path}`;
}

/** Upload paths are served by the API host (docs/product.md "Session and API calls"); other URLs are used as they are. */
export function assetUrl(path: string): string {
  return path.startsWith('/uploads') ? apiUrl(path) : path;
}
