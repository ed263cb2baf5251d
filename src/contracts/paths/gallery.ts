/** Galleries. */
import type { EndpointPath } from '../endpoints.paths.ts';

export const galleryPage = {
  method: 'GET',
  path: '/api/gallery',
  offline: true,
} as const satisfies EndpointPath;
export const galleryFolders = {
  method: 'GET',
  path: '/api/gallery/folders',
  offline: true,
} as const satisfies EndpointPath;
export const galleryUpload = {
  method: 'POST',
  path: '/api/gallery',
  outbox: true,
} as const satisfies EndpointPath;
export const galleryPatch = {
  method: 'PATCH',
  path: '/api/gallery/:ref',
  outbox: true,
} as const satisfies EndpointPath;
export const galleryDelete = {
  method: 'DELETE',
  path: '/api/gallery/:ref',
} as const satisfies EndpointPath;
export const galleryReorder = {
  method: 'POST',
  path: '/api/gallery/reorder',
} as const satisfies EndpointPath;
