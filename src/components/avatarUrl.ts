import { DEFAULT_AVATAR } from '../contracts/constants.ts';
import { assetUrl } from '../lib/apiHost.ts';

/**
 * Where an avatar loads from. Every new picture gets a new random name, so the address alone
 * changes with it: the same address the server preloads for a profile's header.
 */
export function avatarUrl(path: string): string {
  return path ? assetUrl(path) : DEFAULT_AVATAR;
}

const PALETTE = ['#7c6cff', '#2ec4b6', '#ff7a59', '#e056fd', '#3b82f6', '#f59e0b'];

/** An initial on a colour chosen from the name: the last fallback when no picture loads. */
export function initialAvatar(username: string): string {
  const name = username || '?';
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  const colour = PALETTE[hash % PALETTE.length] ?? '#7c6cff';
  const initial = (name[0] ?? '?').toUpperCase().replace(/[<>&"']/g, '?');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="${colour}"/>` +
    `<text x="32" y="42" font-family="sans-serif" font-size="30" fill="#fff" text-anchor="middle">${initial}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}
