/** Gallery changes shared with this member's other tabs over BroadcastChannel `orbit:gallery` (docs/product.md "Realtime"). */
import { CHANNELS } from '../../contracts/constants.ts';
import type { GalleryImageView as GalleryImage } from '../../contracts/gallery.ts';
import { openChannel } from '../../lib/crossTab.ts';

export type GalleryChange =
  | { type: 'image'; image: GalleryImage }
  | { type: 'deleted'; ownerId: string; id: string }
  | { type: 'order'; ownerId: string; order: string[] };

let channel: ReturnType<typeof openChannel> | null = null;

export function postGalleryChange(change: GalleryChange): void {
  channel?.post(change);
}

/** Listens while a gallery is on screen; changes made here are posted to the other tabs meanwhile. */
export function connectGalleryAcrossTabs(onChange: (change: GalleryChange) => void): () => void {
  channel?.close();
  const opened = openChannel(CHANNELS.gallery, (data) => {
    const change = data as Partial<GalleryChange> | null;
    if (change && typeof change.type === 'string') onChange(change as GalleryChange);
  });
  channel = opened;
  return () => {
    opened.close();
    if (channel === opened) channel = null;
  };
}
