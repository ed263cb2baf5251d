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
import { readFolders, readImage, readPage } from '../readers/gallery.ts';
import { ACKNOWLEDGED, endpoint } from './entry.ts';

/** An upload's or an edit's answer: the whole image, read as any server spells it. */
const IMAGE_ANSWER = { answer: GalleryImageResponse, read: readImage };

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
  ...IMAGE_ANSWER,
  status: [201],
  summary: 'Upload (multipart/form-data: image, accountId, userId, username, folder)',
});
export const galleryPatch = /* @__PURE__ */ endpoint(PATHS.galleryPatch, {
  params: GalleryRefParams,
  body: GalleryPatchBody,
  ...IMAGE_ANSWER,
});
export const galleryDelete = /* @__PURE__ */ endpoint(PATHS.galleryDelete, {
  params: GalleryRefParams,
  query: GalleryDeleteQuery,
  answer: 'none',
});
export const galleryReorder = /* @__PURE__ */ endpoint(PATHS.galleryReorder, {
  body: GalleryReorderBody,
  ...ACKNOWLEDGED,
});
