/**
 * The gallery store (docs/architecture.md "Client state"): images per owner, folders, presence and live
 * updates here; what members do to images in editSlice.ts, uploads in uploadSlice.ts.
 */
import { create } from 'zustand';
import { DEFAULT_FOLDER } from '../../contracts/constants.ts';
import type { GalleryImageView as GalleryImage } from '../../contracts/gallery.ts';
import { type GalleryOwnerRef, galleryApi } from './api.ts';
import type { GalleryChange } from './channel.ts';
import {
  type EditSlice,
  createEditSlice,
  deleting,
  imageUpdaters,
  resetEdits,
} from './editSlice.ts';
import { ownerIdOf, sortByOrder, upsertImage } from './images.ts';
import { type UploadSlice, createUploadSlice } from './uploadSlice.ts';

export interface OwnerGallery {
  status: 'loading' | 'ready' | 'error';
  images: GalleryImage[];
  /** 'All' first, then the owner's folders (and one just created here). */
  folders: string[];
}

export interface GalleryState extends UploadSlice, EditSlice {
  galleries: Record<string, OwnerGallery>;
  selectedFolder: Record<string, string>;
  /** Whether each gallery's owner is online (gallery:join / image:join acks, presence:update). */
  online: Record<string, boolean>;
  load: (owner: GalleryOwnerRef) => Promise<void>;
  loadFolders: (owner: GalleryOwnerRef) => Promise<void>;
  selectFolder: (ownerId: string, folder: string) => void;
  /** A folder typed by the owner: listed and selected before any image is in it. */
  addFolder: (ownerId: string, name: string) => void;
  receiveImage: (image: GalleryImage, options?: { created?: boolean }) => void;
  receiveDeleted: (ownerId: string, imageId: string) => void;
  receiveOrder: (ownerId: string, order: string[]) => void;
  setOnline: (userId: string, online: boolean) => void;
  reset: () => void;
}

const latestLoad = new Map<string, number>();

export const useGallery = create<GalleryState>()((set, get, store) => {
  const { update } = imageUpdaters(set, get);

  return {
    ...createUploadSlice(set, get, store),
    ...createEditSlice(set, get, store),
    galleries: {},
    selectedFolder: {},
    online: {},

    async load(owner) {
      const round = (latestLoad.get(owner.id) ?? 0) + 1;
      latestLoad.set(owner.id, round);
      set((state) => {
        const gallery = state.galleries[owner.id];
        return gallery
          ? {}
          : {
              galleries: {
                ...state.galleries,
                [owner.id]: { status: 'loading', images: [], folders: [DEFAULT_FOLDER] },
              },
            };
      });
      try {
        const images = (await galleryApi.list(owner)).filter((image) => !deleting.has(image.id));
        if (latestLoad.get(owner.id) !== round) return;
        set((state) => {
          const folders = state.galleries[owner.id]?.folders ?? [DEFAULT_FOLDER];
          return {
            galleries: { ...state.galleries, [owner.id]: { status: 'ready', images, folders } },
          };
        });
      } catch (error) {
        if (latestLoad.get(owner.id) !== round) return;
        console.warn('Could not load the gallery', error);
        set((state) => {
          const gallery = state.galleries[owner.id];
          if (!gallery || gallery.status === 'ready') return {};
          return { galleries: { ...state.galleries, [owner.id]: { ...gallery, status: 'error' } } };
        });
      }
    },

    async loadFolders(owner) {
      try {
        const folders = await galleryApi.folders(owner);
        const selected = get().selectedFolder[owner.id];
        if (selected && !folders.includes(selected)) folders.push(selected);
        set((state) => {
          const gallery = state.galleries[owner.id] ?? {
            status: 'loading' as const,
            images: [],
            folders,
          };
          return { galleries: { ...state.galleries, [owner.id]: { ...gallery, folders } } };
        });
      } catch (error) {
        console.warn('Could not load the gallery folders', error);
      }
    },

    selectFolder(ownerId, folder) {
      set((state) => ({ selectedFolder: { ...state.selectedFolder, [ownerId]: folder } }));
    },

    addFolder(ownerId, name) {
      const folder = name.trim();
      if (!folder) return;
      set((state) => {
        const gallery = state.galleries[ownerId];
        const galleries =
          gallery && !gallery.folders.includes(folder)
            ? {
                ...state.galleries,
                [ownerId]: { ...gallery, folders: [...gallery.folders, folder] },
              }
            : state.galleries;
        return { galleries, selectedFolder: { ...state.selectedFolder, [ownerId]: folder } };
      });
    },

    receiveImage(image, options = {}) {
      const ownerId = ownerIdOf(image);
      if (deleting.has(image.id)) return;
      update(ownerId, (images) =>
        options.created || images.some((item) => item.id === image.id)
          ? upsertImage(images, image)
          : images,
      );
    },

    receiveDeleted(ownerId, imageId) {
      update(ownerId, (images) => images.filter((image) => image.id !== imageId));
    },

    receiveOrder(ownerId, order) {
      update(ownerId, (images) => sortByOrder(images, order));
    },

    setOnline(userId, online) {
      set((state) =>
        state.online[userId] === online ? {} : { online: { ...state.online, [userId]: online } },
      );
    },

    reset() {
      resetEdits();
      latestLoad.clear();
      get().cancelAllUploads();
      set({
        galleries: {},
        selectedFolder: {},
        online: {},
        notice: {},
        uploads: [],
        uploadStatus: {},
      });
    },
  };
});

/** Another tab changed a gallery this tab may show. */
export function receiveGalleryChange(change: GalleryChange) {
  const state = useGallery.getState();
  switch (change.type) {
    case 'image':
      state.receiveImage(change.image);
      break;
    case 'deleted':
      state.receiveDeleted(change.ownerId, change.id);
      break;
    case 'order':
      state.receiveOrder(change.ownerId, change.order);
      break;
  }
}
