/**
 * The gallery store (docs/architecture.md "Client state"): images per owner, folders, presence and live
 * updates here; what members do to images in editSlice.ts, uploads in uploadSlice.ts.
 */
import { create } from 'zustand';
import { DEFAULT_FOLDER } from '../../contracts/constants.ts';
import {
  GALLERY_PAGE_MAX,
  type GalleryImageLive,
  type GalleryImageView as GalleryImage,
  type OwnReaction,
} from '../../contracts/gallery.ts';
import { type GalleryOwnerRef, galleryApi } from './api.ts';
import type { GalleryChange } from './channel.ts';
import {
  type EditSlice,
  createEditSlice,
  deleting,
  imageUpdaters,
  resetEdits,
} from './editSlice.ts';
import {
  normaliseImage,
  ownerIdOf,
  reorderWithin,
  sortByOrder,
  upsertImage,
  withLiveUpdate,
} from './images.ts';
import { memberId } from './member.ts';
import { type ImagePages, type OwnerGallery, pagesOf, totalOf } from './pages.ts';
import { type UploadSlice, createUploadSlice } from './uploadSlice.ts';

export {
  hasMore,
  loadedLikes,
  pagesOf,
  totalOf,
  type ImagePages,
  type OwnerGallery,
} from './pages.ts';

/**
 * How far a shared link's image is looked for past the loaded pages: this many of the largest
 * pages (docs/decisions.md "A paged gallery").
 */
export const SEEK_PAGES = 10;

export interface GalleryState extends UploadSlice, EditSlice {
  galleries: Record<string, OwnerGallery>;
  selectedFolder: Record<string, string>;
  /** Whether each gallery's owner is online (gallery:join / image:join acks, presence:update). */
  online: Record<string, boolean>;
  /**
   * The first page of a folder ('All' when none is named). A list already read further keeps its
   * later pages after the fresh first one, so a refresh does not lose the member's place.
   */
  load: (owner: GalleryOwnerRef, folder?: string) => Promise<void>;
  /** The next page of a folder, if there is one and none is on its way; answers whether one came. */
  loadMore: (owner: GalleryOwnerRef, folder?: string, limit?: number) => Promise<boolean>;
  /** Reads further pages of 'All' until the image is there (a shared link); answers whether it is. */
  seek: (owner: GalleryOwnerRef, imageId: string) => Promise<boolean>;
  loadFolders: (owner: GalleryOwnerRef) => Promise<void>;
  selectFolder: (ownerId: string, folder: string) => void;
  /** A folder typed by the owner: listed and selected before any image is in it. */
  addFolder: (ownerId: string, name: string) => void;
  /**
   * An image from the server or another tab. A live one (a socket event) carries counts and no ids:
   * the ids held stay, the member's own reaction set from `mine` when the event tells it.
   */
  receiveImage: (
    image: GalleryImage,
    options?: { created?: boolean; live?: { mine?: OwnReaction | undefined } },
  ) => void;
  receiveDeleted: (ownerId: string, imageId: string) => void;
  receiveOrder: (ownerId: string, order: string[]) => void;
  setOnline: (userId: string, online: boolean) => void;
  reset: () => void;
}

/** The latest first-page load of each list; a page answered after a newer load is dropped. */
const latestLoad = new Map<string, number>();
/** Deletes heard of or made here, so each takes one off a total once. */
const gone = new Set<string>();

const listKey = (ownerId: string, folder: string) => `${ownerId}\u0000${folder}`;

type Change = (list: ImagePages | undefined) => ImagePages | undefined;

/** The state with one folder's list of one owner changed (the gallery is made if it is new). */
function setList(
  state: GalleryState,
  ownerId: string,
  folder: string,
  change: Change,
): Partial<GalleryState> {
  const gallery = state.galleries[ownerId];
  const before = pagesOf(gallery, folder);
  const after = change(before);
  if (after === before || !after) return {};
  const base: OwnerGallery = gallery ?? {
    status: 'loading',
    images: [],
    folders: [DEFAULT_FOLDER],
  };
  const next: OwnerGallery =
    folder === DEFAULT_FOLDER
      ? { ...base, ...after }
      : { ...base, byFolder: { ...base.byFolder, [folder]: after } };
  return { galleries: { ...state.galleries, [ownerId]: next } };
}

/** Resolves once the 'All' page on its way has come (or failed). */
function waitForPage(ownerId: string): Promise<void> {
  return new Promise((resolve) => {
    const stop = useGallery.subscribe((state) => {
      if (state.galleries[ownerId]?.more === 'loading') return;
      stop();
      resolve();
    });
  });
}

export const useGallery = create<GalleryState>()((set, get, store) => {
  const { update } = imageUpdaters(set, get);

  return {
    ...createUploadSlice(set, get, store),
    ...createEditSlice(set, get, store),
    galleries: {},
    selectedFolder: {},
    online: {},

    async load(owner, folder = DEFAULT_FOLDER) {
      const key = listKey(owner.id, folder);
      const round = (latestLoad.get(key) ?? 0) + 1;
      latestLoad.set(key, round);
      set((state) => {
        if (pagesOf(state.galleries[owner.id], folder)) return {};
        return setList(state, owner.id, folder, () => ({ status: 'loading', images: [] }));
      });
      try {
        const page = await galleryApi.page(owner, { folder });
        if (latestLoad.get(key) !== round) return;
        const first = page.images.filter((image) => !deleting.has(image.id));
        set((state) =>
          setList(state, owner.id, folder, (list) => {
            const fresh = new Set(first.map((image) => image.id));
            // Pages read past the first stay, after it, with their own cursor (when the first
            // page is not the whole gallery).
            const further =
              list?.status === 'ready' &&
              page.nextCursor !== null &&
              list.images.length > page.images.length
                ? list.images.filter((image) => !fresh.has(image.id))
                : [];
            const images = [...first, ...further];
            return {
              status: 'ready',
              images,
              nextCursor: further.length > 0 ? (list?.nextCursor ?? null) : page.nextCursor,
              total: Math.max(page.total - (page.images.length - first.length), images.length),
              more: 'idle',
            };
          }),
        );
      } catch (error) {
        if (latestLoad.get(key) !== round) return;
        console.warn('Could not load the gallery', error);
        set((state) =>
          setList(state, owner.id, folder, (list) =>
            !list || list.status === 'ready' ? list : { ...list, status: 'error' },
          ),
        );
      }
    },

    async loadMore(owner, folder = DEFAULT_FOLDER, limit) {
      const key = listKey(owner.id, folder);
      const list = pagesOf(get().galleries[owner.id], folder);
      if (!list || list.status !== 'ready' || !list.nextCursor || list.more === 'loading')
        return false;
      const round = latestLoad.get(key) ?? 0;
      const cursor = list.nextCursor;
      const mark = (more: 'loading' | 'error') =>
        set((state) =>
          setList(state, owner.id, folder, (current) =>
            current?.nextCursor === cursor ? { ...current, more } : current,
          ),
        );
      mark('loading');
      try {
        const page = await galleryApi.page(owner, {
          folder,
          cursor,
          ...(limit ? { limit } : {}),
        });
        // A fresh first page meanwhile has its own cursor; this page may not follow it.
        if ((latestLoad.get(key) ?? 0) !== round) return false;
        let added = false;
        set((state) =>
          setList(state, owner.id, folder, (current) => {
            if (current?.nextCursor !== cursor) return current;
            const known = new Set(current.images.map((image) => image.id));
            const next = page.images.filter(
              (image) => !known.has(image.id) && !deleting.has(image.id),
            );
            added = next.length > 0;
            const images = [...current.images, ...next];
            return {
              ...current,
              images,
              nextCursor: page.nextCursor,
              total: Math.max(page.total, images.length),
              more: 'idle',
            };
          }),
        );
        return added;
      } catch (error) {
        console.warn('Could not load more of the gallery', error);
        mark('error');
        return false;
      }
    },

    async seek(owner, imageId) {
      const has = () =>
        get().galleries[owner.id]?.images.some((image) => image.id === imageId) ?? false;
      for (let page = 0; !has() && page < SEEK_PAGES; page++) {
        const list = get().galleries[owner.id];
        if (!list?.nextCursor || list.more === 'error') break;
        if (list.more === 'loading') await waitForPage(owner.id);
        else await get().loadMore(owner, DEFAULT_FOLDER, GALLERY_PAGE_MAX);
      }
      return has();
    },

    async loadFolders(owner) {
      try {
        const { folders, likes } = await galleryApi.folders(owner);
        const selected = get().selectedFolder[owner.id];
        if (selected && !folders.includes(selected)) folders.push(selected);
        set((state) => {
          const gallery = state.galleries[owner.id] ?? {
            status: 'loading' as const,
            images: [],
            folders,
          };
          return {
            galleries: {
              ...state.galleries,
              [owner.id]: { ...gallery, folders, ...(likes === undefined ? {} : { likes }) },
            },
          };
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
      const { live } = options;
      update(ownerId, (images) => {
        const held = images.find((item) => item.id === image.id);
        if (!options.created && !held) return images;
        return upsertImage(
          images,
          live ? withLiveUpdate(held, image, live.mine, memberId()) : image,
        );
      });
    },

    receiveDeleted(ownerId, imageId) {
      const gallery = get().galleries[ownerId];
      const lists = [gallery, ...Object.values(gallery?.byFolder ?? {})];
      const loaded = lists.some((list) => list?.images.some((image) => image.id === imageId));
      if (loaded) update(ownerId, (images) => images.filter((image) => image.id !== imageId));
      else if (gallery && !gone.has(imageId) && !deleting.has(imageId)) {
        // Not loaded here: it was on a later page of 'All' (its folder is unknown).
        set((state) =>
          setList(state, ownerId, DEFAULT_FOLDER, (list) =>
            list ? { ...list, total: Math.max(totalOf(list) - 1, list.images.length) } : list,
          ),
        );
      }
      gone.add(imageId);
    },

    receiveOrder(ownerId, order) {
      update(ownerId, (images) =>
        sortByOrder(
          images,
          reorderWithin(
            images.map((image) => image.id),
            order,
          ),
        ),
      );
    },

    setOnline(userId, online) {
      set((state) =>
        state.online[userId] === online ? {} : { online: { ...state.online, [userId]: online } },
      );
    },

    reset() {
      resetEdits();
      latestLoad.clear();
      gone.clear();
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

/**
 * Reads a folder's first page unless it is loaded or on its way: the grid and the manager both ask
 * when a folder is chosen, and one request serves both.
 */
export function readFolder(owner: GalleryOwnerRef, folder: string): void {
  const state = useGallery.getState();
  if (!pagesOf(state.galleries[owner.id], folder)) void state.load(owner, folder);
}

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

/**
 * A gallery:image:created or gallery:image:updated event (docs/decisions.md "Reactions under a
 * block"): counts and no ids; on the sockets of the member who made the change, their own reaction.
 */
export function receiveLiveImage(payload: GalleryImageLive, created: boolean) {
  const image = normaliseImage(payload);
  if (image)
    useGallery.getState().receiveImage(image, { created, live: { mine: payload.myReaction } });
}
