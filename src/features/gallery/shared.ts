/**
 * Photos shared into Orbit from another app (docs/product.md "Sharing photos into Orbit"): the
 * worker kept them on the device (sw/share.ts); the owner's own profile takes those meant for them
 * and opens the upload manager on them, whatever way the member came there.
 */
import { useEffect } from 'react';
import type { GalleryOwnerRef } from './api.ts';
import { useGallery } from './store.ts';

/** Claims the shared files waiting for `owner` (theirs, or shared while signed out). */
async function claim(owner: GalleryOwnerRef) {
  if (typeof indexedDB === 'undefined') return [];
  const idb = await import('../../lib/idb.ts');
  const claimed = await idb.claimSharedFiles(owner.id);
  return claimed.map(({ id, file, name, type }) => ({
    id,
    file: file instanceof File ? file : new File([file], name, { type }),
  }));
}

/** On the owner's profile: shows the shared files as tiles and calls `open` when there are some. */
export function useSharedPhotos(owner: GalleryOwnerRef, canEdit: boolean, open: () => void): void {
  const holdShared = useGallery((state) => state.holdShared);
  useEffect(() => {
    if (!canEdit) return;
    let live = true;
    void claim(owner)
      .then((files) => {
        if (!live || files.length === 0) return;
        void holdShared(owner, files);
        open();
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [owner, canEdit, holdShared, open]);
}
