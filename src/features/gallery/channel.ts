/**
 * A reorder shared with this member's other tabs over BroadcastChannel `orbit:gallery`: the one
 * gallery change no socket event carries (docs/architecture.md "Client state").
 */
import { CHANNELS } from '../../lib/constants.ts';
import { openChannel } from '../../lib/crossTab.ts';

export interface GalleryChange {
  ownerId: string;
  order: string[];
}

let channel: ReturnType<typeof openChannel> | null = null;

export function postGalleryOrder(change: GalleryChange): void {
  channel?.post(change);
}

const isChange = (data: unknown): data is GalleryChange => {
  const change = data as Partial<GalleryChange> | null;
  return (
    typeof change?.ownerId === 'string' &&
    Array.isArray(change.order) &&
    change.order.every((id) => typeof id === 'string')
  );
};

/** Listens while a gallery is on screen; reorders made here are posted to the other tabs meanwhile. */
export function connectGalleryAcrossTabs(onChange: (change: GalleryChange) => void): () => void {
  channel?.close();
  const opened = openChannel(CHANNELS.gallery, (data) => {
    if (isChange(data)) onChange(data);
  });
  channel = opened;
  return () => {
    opened.close();
    if (channel === opened) channel = null;
  };
}
