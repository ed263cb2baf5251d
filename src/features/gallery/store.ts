/**
 * The gallery store (docs/architecture.md "Client state"): images per owner, folders, presence and live
 * updates here; what members do to images in editSlice.ts, uploads in uploadSlice.ts.
 */
import { create } from 'zustand';
import { DEFAULT_FOLDER } from '../../contracts/constants.ts';
import {
  GALLERY_PAGE_MAX,
  type GalleryImageLive,
  type GalleryImage,
  type OwnReaction,
} from '../../contracts/gallery.ts';
import { joinMemberState } from '../../lib/memberState.ts';
import { createPager, isMissing } from '../../lib/serverState.ts';
import { type GalleryOwnerRef, galleryApi } from './api.ts';
import type { GalleryChange } from './channel.ts';
import { type EditSlice, createEditSlice, imageUpdaters } from './editSlice.ts';
import { ownerIdOf, upsertImage, withLiveUpdate } from './images.ts';
import { normaliseImage } from '../../contracts/readers/gallery.ts';
import { memberId } from './member.ts';
import {
  type ImagePages,
  type OwnerGallery,
  galleryServer,
  pagesOf,
  totalOf,
  without,
} from './pages.ts';
import { type UploadSlice, createUploadSlice } from './uploadSlice.ts';
import { imagesWithWaiting, waitingEdits } from './waiting.ts';
import { onWaitingItems, waitingItems } from '../offline/waiting.ts';

export { hasMore, pagesOf, totalOf } from './pages.ts';

/**
 * How far a shared link's image is looked for past the loaded pages: this many of the largest
 * pages (docs/decisions.md "A paged gallery").
 */
const SEEK_PAGES = 10;

export interface GalleryState extends UploadSlice, EditSlice {
  galleries: Record<string, OwnerGallery>;
  selectedFolder: Record<string, string>;
  /** A folder the owner named here that holds no image yet: listed while it is chosen. */
  namedFolder: Record<string, string>;
  /** Whether each gallery's owner is online (gallery:join / image:join acks, presence:update). */
  online: Record<string, boolean>;
  /** Images being deleted here: left out of every answer until the server has answered. */
  deleting: Record<string, true>;
  /** Images whose deletion was seen (made here or heard of): seeing it again changes nothing. */
  gone: Record<string, true>;
  /**
   * The first page of a folder ('All' when none is named). A list already read further keeps its
   * later pages after the fresh first one, so a refresh does not lose the member's place. A 404
   * empties the whole gallery: the owner is gone, or hidden by a block.
   */
  load: (owner: GalleryOwnerRef, folder?: string) => Promise<void>;
  /** The next page of a folder, if there is one and none is on its way; answers whether one came. */
  loadMore: (owner: GalleryOwnerRef, folder?: string, limit?: number) => Promise<boolean>;
  /** Reads further pages of 'All' until the image is there (a shared link); answers whether it is. */
  seek: (owner: GalleryOwnerRef, imageId: string) => Promise<boolean>;
  /**
   * The owner's folders, the one list the profile and the manager both offer. A folder whose last
   * image went is gone from it, and is no longer chosen: the choice goes back to All.
   */
  loadFolders: (owner: GalleryOwnerRef) => Promise<void>;
  selectFolder: (ownerId: string, folder: string) => void;
  /** A folder typed by the owner: listed and selected before any image is in it. */
  addFolder: (ownerId: string, name: string) => void;
  /**
   * An image from the server, an event or another tab; the same image twice changes nothing more
   * than once. A live one (a socket event) carries counts and no ids: the ids held stay, the
   * member's own reaction set from `mine` when the event tells it.
   */
  receiveImage: (
    image: GalleryImage,
    options?: { created?: boolean; live?: { mine?: OwnReaction | undefined } },
  ) => void;
  /** A deletion, made here or heard of; the same deletion twice counts once. */
  receiveDeleted: (ownerId: string, imageId: string) => void;
  receiveOrder: (ownerId: string, order: string[]) => void;
  setOnline: (userId: string, online: boolean) => void;
  /** Drops the owner's gallery if the server said it is missing, so it is asked for afresh. */
  forgetMissing: (ownerId: string) => void;
  reset: () => void;
}

type Change = (list: ImagePages | undefined) => ImagePages | undefined;

/** A gallery the server says is not there for this member: nothing of it is kept. */
const MISSING: OwnerGallery = { status: 'missing', items: [], folders: [DEFAULT_FOLDER] };

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
  if (after.status === 'missing') return { galleries: { ...state.galleries, [ownerId]: MISSING } };
  const base: OwnerGallery = gallery ?? {
    status: 'loading',
    items: [],
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

/** A pager key names the owner (id and username, for the request) and the folder. */
type ListRef = [owner: GalleryOwnerRef, folder: string];
const listKey = (owner: GalleryOwnerRef, folder: string) =>
  JSON.stringify([owner, folder] satisfies ListRef);
const listOf = (key: string) => JSON.parse(key) as ListRef;

/** What the store knows of galleries before any is loaded, and again once the member leaves. */
const NO_GALLERIES = {
  galleries: {},
  selectedFolder: {},
  namedFolder: {},
  online: {},
  deleting: {},
  gone: {},
} satisfies Partial<GalleryState>;

export const useGallery = create<GalleryState>()((set, get, store) => {
  const { update, putInOrder } = imageUpdaters(set, get);
  const pages = createPager<GalleryImage>(galleryServer, {
    read: (key) => {
      const [owner, folder] = listOf(key);
      return pagesOf(get().galleries[owner.id], folder);
    },
    write: (key, list) => {
      const [owner, folder] = listOf(key);
      // The server's images (or the saved copy of them) with what the member did offline on top.
      const items = imagesWithWaiting(list.items, waitingEdits(waitingItems()), memberId());
      set((state) =>
        setList(state, owner.id, folder, () => (items === list.items ? list : { ...list, items })),
      );
    },
    fetch: async (key, cursor, limit) => {
      const [owner, folder] = listOf(key);
      try {
        const page = await galleryApi.page(owner, {
          folder,
          ...(cursor ? { cursor } : {}),
          ...(limit ? { limit } : {}),
        });
        return { items: page.images, nextCursor: page.nextCursor, total: page.total };
      } catch (error) {
        console.warn('Could not load the gallery', error);
        throw error;
      }
    },
    idOf: (image) => image.id,
    hide: (id) => Boolean(get().deleting[id]),
    keep: true,
  });

  return {
    ...createUploadSlice(set, get, store),
    ...createEditSlice(set, get, store),
    ...NO_GALLERIES,

    load: (owner, folder = DEFAULT_FOLDER) => pages.first(listKey(owner, folder)),

    loadMore: (owner, folder = DEFAULT_FOLDER, limit) => pages.next(listKey(owner, folder), limit),

    async seek(owner, imageId) {
      const has = () =>
        get().galleries[owner.id]?.items.some((image) => image.id === imageId) ?? false;
      for (let page = 0; !has() && page < SEEK_PAGES; page++) {
        const list = get().galleries[owner.id];
        if (!list?.nextCursor || list.more === 'error') break;
        if (list.more === 'loading') await waitForPage(owner.id);
        else await get().loadMore(owner, DEFAULT_FOLDER, GALLERY_PAGE_MAX);
      }
      return has();
    },

    async loadFolders(owner) {
      const ticket = galleryServer.claim(`folders:${owner.id}`);
      try {
        const { folders, likes } = await galleryApi.folders(owner);
        if (!ticket.current) return;
        const selected = get().selectedFolder[owner.id];
        const named = get().namedFolder[owner.id];
        const emptied = selected && !folders.includes(selected) && selected !== named;
        if (selected && !folders.includes(selected) && !emptied) folders.push(selected);
        set((state) => {
          const gallery = state.galleries[owner.id] ?? {
            status: 'loading' as const,
            items: [],
            folders,
          };
          return {
            galleries: {
              ...state.galleries,
              [owner.id]: { ...gallery, folders, ...(likes === undefined ? {} : { likes }) },
            },
            ...(emptied
              ? { selectedFolder: { ...state.selectedFolder, [owner.id]: DEFAULT_FOLDER } }
              : {}),
            // Once the server lists it, the folder is the server's like any other.
            ...(named && folders.includes(named)
              ? { namedFolder: without(state.namedFolder, owner.id) }
              : {}),
          };
        });
      } catch (error) {
        if (!ticket.current) return;
        console.warn('Could not load the gallery folders', error);
        if (isMissing(error))
          set((state) => ({ galleries: { ...state.galleries, [owner.id]: MISSING } }));
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
        return {
          galleries,
          selectedFolder: { ...state.selectedFolder, [ownerId]: folder },
          namedFolder: gallery?.folders.includes(folder)
            ? state.namedFolder
            : { ...state.namedFolder, [ownerId]: folder },
        };
      });
    },

    receiveImage(image, options = {}) {
      const ownerId = ownerIdOf(image);
      if (get().deleting[image.id] || get().gone[image.id]) return;
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
      if (get().gone[imageId]) return;
      const gallery = get().galleries[ownerId];
      const lists = [gallery, ...Object.values(gallery?.byFolder ?? {})];
      const image = lists.flatMap((list) => list?.items ?? []).find((item) => item.id === imageId);
      if (image) {
        update(ownerId, (images) => images.filter((item) => item.id !== imageId));
        // It may have been its folder's last image.
        if (image.folder !== DEFAULT_FOLDER)
          void get().loadFolders({ id: ownerId, username: image.owner.username });
      } else if (gallery && !get().deleting[imageId]) {
        // Not loaded here: it was on a later page of 'All' (its folder is unknown).
        set((state) =>
          setList(state, ownerId, DEFAULT_FOLDER, (list) =>
            list ? { ...list, total: Math.max(totalOf(list) - 1, list.items.length) } : list,
          ),
        );
      }
      set((state) => ({ gone: { ...state.gone, [imageId]: true } }));
    },

    receiveOrder(ownerId, order) {
      putInOrder(ownerId, order);
    },

    setOnline(userId, online) {
      set((state) =>
        state.online[userId] === online ? {} : { online: { ...state.online, [userId]: online } },
      );
    },

    forgetMissing(ownerId) {
      set((state) => {
        if (state.galleries[ownerId]?.status !== 'missing') return {};
        const { [ownerId]: _missing, ...galleries } = state.galleries;
        return { galleries };
      });
    },

    reset() {
      get().cancelAllUploads();
      galleryServer.reset();
      set({
        ...NO_GALLERIES,
        notice: {},
        uploads: [],
        uploadStatus: {},
      });
    },
  };
});

joinMemberState('gallery', { reset: () => useGallery.getState().reset() });

// A change the member made offline shows on every image held as soon as the outbox lists it
// (docs/decisions.md "The offline outbox"); once it is sent or refused, the page is read again.
onWaitingItems((items) => {
  const edits = waitingEdits(items);
  if (edits.length === 0) return;
  const refs = new Set(edits.map((edit) => edit.params.ref));
  const { update } = imageUpdaters(useGallery.setState, useGallery.getState);
  for (const [ownerId, gallery] of Object.entries(useGallery.getState().galleries)) {
    const lists = [gallery, ...Object.values(gallery.byFolder ?? {})];
    if (lists.some((list) => list.items.some((image) => refs.has(image.id))))
      update(ownerId, (images) => imagesWithWaiting(images, edits, memberId()));
  }
});

/**
 * Reads a folder's first page unless it is loaded or on its way: the grid and the manager both ask
 * when a folder is chosen, and one request serves both.
 */
export function readFolder(owner: GalleryOwnerRef, folder: string): void {
  const state = useGallery.getState();
  if (!pagesOf(state.galleries[owner.id], folder)) void state.load(owner, folder);
}

/** Another tab of this browser reordered a gallery this tab may show. */
export function receiveGalleryChange(change: GalleryChange) {
  useGallery.getState().receiveOrder(change.ownerId, change.order);
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
