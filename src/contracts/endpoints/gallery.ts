/** Galleries (docs/decisions.md "Only the owner edits a gallery", "A paged gallery"). */
import * as PATHS from '../paths/gallery.ts';
import {
  GalleryDeleteQuery,
  GalleryFoldersResponse,
  GalleryImageResponse,
  GalleryListResponse,
  GalleryOwnerQuery,
  GalleryPageQuery,
  GalleryPatchBody,
  GalleryRefParams,
  GalleryReorderBody,
} from '../gallery.ts';
import { OkResponse } from '../http.ts';
import { readFolders, readImage, readPage } from '../readers/gallery.ts';
import { endpoint } from './entry.ts';

export const galleryPage = /* @__PURE__ */ endpoint(PATHS.galleryPage, {
  query: GalleryPageQuery,
  answer: GalleryListResponse,
  read: readPage,
});
export const galleryFolders = /* @__PURE__ */ endpoint(PATHS.galleryFolders, {
  query: GalleryOwnerQuery,
  answer: GalleryFoldersResponse,
  read: readFolders,
});
/** Sent with XMLHttpRequest for its progress (src/features/gallery/upload.ts). */
export const galleryUpload = /* @__PURE__ */ endpoint(PATHS.galleryUpload, {
  multipart: 'only',
  answer: GalleryImageResponse,
  status: [201],
  read: readImage,
  summary: 'Upload (multipart/form-data: image, accountId, userId, username, folder)',
});
export const galleryPatch = /* @__PURE__ */ endpoint(PATHS.galleryPatch, {
  params: GalleryRefParams,
  body: GalleryPatchBody,
  answer: GalleryImageResponse,
  read: readImage,
});
export const galleryDelete = /* @__PURE__ */ endpoint(PATHS.galleryDelete, {
  params: GalleryRefParams,
  query: GalleryDeleteQuery,
  answer: 'none',
});
export const galleryReorder = /* @__PURE__ */ endpoint(PATHS.galleryReorder, {
  body: GalleryReorderBody,
  answer: OkResponse,
  read: () => null,
});
