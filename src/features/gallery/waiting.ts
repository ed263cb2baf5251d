/**
 * Reactions and captions made offline, waiting in the outbox (docs/decisions.md "The offline
 * outbox"): the gallery store shows them on top of the server's images, and the viewer marks them.
 */
import type { GalleryImage, GalleryPatchBody } from '../../contracts/gallery.ts';
import { galleryPatch } from '../../contracts/paths/gallery.ts';
import type { OutboxItem } from '../../lib/outboxQueue.ts';
import { type WaitingCall, useWaiting, waitingCalls } from '../offline/waiting.ts';
import { REACTIONS, toggleReaction } from './images.ts';

export type WaitingEdit = WaitingCall<GalleryPatchBody>;

/** The member's waiting edits of images, oldest first. */
export const waitingEdits = (items: readonly OutboxItem[]): WaitingEdit[] =>
  waitingCalls<GalleryPatchBody>(items, galleryPatch);

/**
 * `image` with the waiting edits made to it, in the order they were made: a like or dislike
 * set or taken back by `memberId` (the count moving with it), a caption. Applying them twice
 * changes nothing more than once.
 */
function withWaitingEdits(
  image: GalleryImage,
  edits: readonly WaitingEdit[],
  memberId: string,
): GalleryImage {
  let shown = image;
  for (const { params, body } of edits) {
    if (params.ref !== image.id) continue;
    for (const kind of REACTIONS) {
      const on = body[kind];
      if (memberId && typeof on === 'boolean' && shown[kind].includes(memberId) !== on)
        shown = toggleReaction(shown, kind, memberId);
    }
    if (typeof body.caption === 'string' && shown.caption !== body.caption)
      shown = { ...shown, caption: body.caption };
  }
  return shown;
}

/** `images` with the waiting edits; the same array when none applies. */
export function imagesWithWaiting(
  images: GalleryImage[],
  edits: readonly WaitingEdit[],
  memberId: string,
): GalleryImage[] {
  if (edits.length === 0) return images;
  let changed = false;
  const shown = images.map((image) => {
    const after = withWaitingEdits(image, edits, memberId);
    if (after !== image) changed = true;
    return after;
  });
  return changed ? shown : images;
}

/** Whether a reaction of the member's to this image waits to be sent. */
export const useReactionWaiting = (imageId: string): boolean =>
  useWaiting<GalleryPatchBody>(
    galleryPatch,
    ({ params, body }) =>
      params.ref === imageId && REACTIONS.some((kind) => typeof body[kind] === 'boolean'),
  );

/** Whether a caption of this image waits to be sent. */
export const useCaptionWaiting = (imageId: string): boolean =>
  useWaiting<GalleryPatchBody>(
    galleryPatch,
    ({ params, body }) => params.ref === imageId && typeof body.caption === 'string',
  );
