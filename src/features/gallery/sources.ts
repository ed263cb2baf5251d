/** Where an image can be loaded from, in the order docs/product.md "Errors" tries them. */
import type { GalleryImage } from '../../contracts/gallery.ts';
import { apiUrl } from '../../lib/apiHost.ts';

/** The last resort: a neutral picture drawn inline, so it can never fail to load itself. */
export const PLACEHOLDER_IMAGE = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 90"><rect width="120" height="90" fill="#1d2150"/>' +
    '<path d="M28 66l20-24 14 16 10-11 20 19z" fill="#5b5fa8"/><circle cx="80" cy="32" r="8" fill="#5b5fa8"/></svg>',
)}`;

const ABSOLUTE = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/** A stored file reference as a path: bare names live under /uploads. */
function asPath(reference: string): string {
  if (reference.startsWith('/')) return reference;
  if (reference.startsWith('uploads/')) return `/${reference}`;
  return `/uploads/${reference}`;
}

/** The same address written two ways counts once. */
function sameKey(url: string): string {
  try {
    return new URL(url, window.location.href).href;
  } catch {
    return url;
  }
}

/**
 * Every address to try for an image: for each of its two pictures in turn (the thumbnail first when
 * a grid asks, the display size first otherwise), the API host's URL and then the relative path;
 * the placeholder last. Version parameters (`?v=`) stay on as they came.
 */
export function imageSources(image: GalleryImage, options: { thumbnail?: boolean } = {}): string[] {
  const references = options.thumbnail
    ? [image.thumbnailUrl, image.url]
    : [image.url, image.thumbnailUrl];
  const seen = new Set<string>();
  const chain: string[] = [];
  const add = (url: string) => {
    const key = sameKey(url);
    if (seen.has(key)) return;
    seen.add(key);
    chain.push(url);
  };
  for (const reference of references) {
    if (!reference) continue;
    if (ABSOLUTE.test(reference)) {
      add(reference);
      continue;
    }
    const path = asPath(reference);
    add(apiUrl(path));
    add(path);
  }
  chain.push(PLACEHOLDER_IMAGE);
  return chain;
}
