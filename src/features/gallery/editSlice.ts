/** What members do to images (docs/product.md "Image viewer", "Uploads"): delete, react, caption, move and reorder. */
import type { StateCreator } from 'zustand';
import { DEFAULT_FOLDER } from '../../contracts/constants.ts';
import type { GalleryImage } from '../../contracts/gallery.ts';
import { deleteFailureText, galleryApi, saveFailureText } from './api.ts';
import { postGalleryOrder } from './channel.ts';
import {
  type Reaction,
  reorderWithin,
  restoreAt,
  singleMove,
  sortByOrder,
  toggleReaction,
} from './images.ts';
import { memberId } from './member.ts';
import { isQueued } from '../../lib/serverState.ts';
import { type ImagePages, galleryServer, loadedLikes, totalOf, without } from './pages.ts';
import type { GalleryState } from './store.ts';

/** How long a failed delete's message stays (docs/product.md "Errors" gives no figure). */
const NOTICE_MS = 4_000;

export interface EditSlice {
  /** A message about a failed owner action, per gallery (the delete failure of docs/product.md "Errors"). */
  notice: Record<string, string>;
  /** Optimistic delete; answers whether the server agreed. The image comes back on failure. */
  remove: (ownerId: string, imageId: string) => Promise<boolean>;
  react: (ownerId: string, imageId: string, kind: Reaction) => Promise<void>;
  /** Resolves when saved; rejects with the failure text of docs/product.md "Errors" otherwise. */
  saveCaption: (ownerId: string, imageId: string, caption: string) => Promise<void>;
  moveToFolder: (ownerId: string, imageId: string, folder: string) => Promise<boolean>;
  /** `part` in its new order (the whole gallery or a part of it); saved, a failure only logged. */
  reorder: (ownerId: string, part: string[]) => Promise<void>;
  showNotice: (ownerId: string, text: string) => void;
}

type SetState = Parameters<StateCreator<GalleryState>>[0];
type GetState = Parameters<StateCreator<GalleryState>>[1];

/**
 * One list after a change to its images: a folder's list keeps only that folder's images, and the
 * total moves with what the change added or took away.
 */
function changeList<T extends ImagePages>(list: T, change: ListChange, folder?: string): T {
  let items = change(list.items, folder ?? DEFAULT_FOLDER);
  if (folder !== undefined) items = items.filter((image) => image.folder === folder);
  if (items === list.items) return list;
  const total = Math.max(totalOf(list) + items.length - list.items.length, items.length);
  return list.total === undefined && list.nextCursor == null
    ? { ...list, items }
    : { ...list, items, total };
}

/** A change to one list's images; `folder` says which list ('All' for the whole gallery). */
type ListChange = (images: GalleryImage[], folder: string) => GalleryImage[];

/** Changes one owner's images in every list loaded here ('All' and each folder). */
export function imageUpdaters(set: SetState, get: GetState) {
  const update = (ownerId: string, change: ListChange) =>
    set((state) => {
      const gallery = state.galleries[ownerId];
      if (!gallery) return {};
      const next = changeList(gallery, change);
      if (gallery.byFolder) {
        next.byFolder = Object.fromEntries(
          Object.entries(gallery.byFolder).map(([folder, list]) => [
            folder,
            changeList(list, change, folder),
          ]),
        );
      }
      // The server's count of likes follows what changed on the images loaded here.
      if (gallery.likes !== undefined)
        next.likes = Math.max(0, gallery.likes + loadedLikes(next) - loadedLikes(gallery));
      return { galleries: { ...state.galleries, [ownerId]: next } };
    });
  const find = (ownerId: string, imageId: string) => {
    const gallery = get().galleries[ownerId];
    for (const list of [gallery, ...Object.values(gallery?.byFolder ?? {})]) {
      const image = list?.items.find((item) => item.id === imageId);
      if (image) return image;
    }
    return undefined;
  };
  const replace = (ownerId: string, image: GalleryImage) =>
    update(ownerId, (images) => images.map((item) => (item.id === image.id ? image : item)));
  /** Drops a folder's own list, whose place for a newcomer is unknown: it is read again when shown. */
  const forgetFolder = (ownerId: string, folder: string) =>
    set((state) => {
      const gallery = state.galleries[ownerId];
      if (!gallery?.byFolder?.[folder]) return {};
      const byFolder = { ...gallery.byFolder };
      delete byFolder[folder];
      return { galleries: { ...state.galleries, [ownerId]: { ...gallery, byFolder } } };
    });
  /** Puts the images of `order` (ids) in that order, in the places they held, in every list. */
  const putInOrder = (ownerId: string, order: readonly string[]) =>
    update(ownerId, (images) =>
      sortByOrder(
        images,
        reorderWithin(
          images.map((image) => image.id),
          order,
        ),
      ),
    );
  return { update, find, replace, forgetFolder, putInOrder };
}

export const createEditSlice: StateCreator<GalleryState, [], [], EditSlice> = (set, get) => {
  const { update, find, replace, forgetFolder, putInOrder } = imageUpdaters(set, get);
  return {
    notice: {},
    async remove(ownerId, imageId) {
      const image = find(ownerId, imageId);
      if (!image) return false;
      // Where it was in each list, to put it back there if the server refuses.
      const places = new Map<string, number>();
      const mark = (deleting: boolean) =>
        set((state) => {
          const { [imageId]: _was, ...others } = state.deleting;
          return { deleting: deleting ? { ...others, [imageId]: true } : others };
        });
      mark(true);
      update(ownerId, (list, folder) => {
        places.set(
          folder,
          list.findIndex((item) => item.id === imageId),
        );
        return list.filter((item) => item.id !== imageId);
      });
      const ticket = galleryServer.current('member');
      const outcome = await galleryServer.optimistic(
        () => () =>
          update(ownerId, (list, folder) => {
            const index = places.get(folder) ?? -1;
            return index === -1 ? list : restoreAt(list, image, index);
          }),
        () => galleryApi.remove(image, memberId()),
      );
      if (!ticket.current) return outcome.ok;
      // Seen as gone while still marked as being deleted, so it counts once: the deletion's event
      // reaches this tab too, and finds it gone already.
      if (outcome.ok) {
        get().receiveDeleted(ownerId, imageId);
        // It may have been its folder's last image: the folders are read again.
        if (image.folder !== DEFAULT_FOLDER)
          void get().loadFolders({ id: ownerId, username: image.owner.username });
      } else get().showNotice(ownerId, deleteFailureText(outcome.error));
      mark(false);
      return outcome.ok;
    },

    async react(ownerId, imageId, kind) {
      const me = memberId();
      const before = find(ownerId, imageId);
      if (!me || !before) return;
      const optimistic = toggleReaction(before, kind, me);
      replace(ownerId, optimistic);
      // Only the latest of several quick toggles may write the server's answer back.
      const ticket = galleryServer.claim(`react:${imageId}`);
      try {
        const image = await galleryApi.patch(imageId, {
          accountId: me,
          [kind]: optimistic[kind].includes(me),
        });
        if (!ticket.current) return;
        replace(ownerId, image);
      } catch (error) {
        // Kept in the offline outbox: the reaction stands until the server answers it.
        if (!ticket.current || isQueued(error)) return;
        const current = find(ownerId, imageId);
        if (current)
          replace(ownerId, {
            ...current,
            likes: before.likes,
            dislikes: before.dislikes,
            likeCount: before.likeCount,
            dislikeCount: before.dislikeCount,
          });
        console.warn(saveFailureText(error));
      }
    },

    async saveCaption(ownerId, imageId, caption) {
      try {
        const image = await galleryApi.patch(imageId, { accountId: memberId(), caption });
        replace(ownerId, image);
      } catch (error) {
        const current = find(ownerId, imageId);
        // Kept in the offline outbox: the caption shows as written until the server answers it.
        if (isQueued(error) && current) replace(ownerId, { ...current, caption });
        else throw new Error(saveFailureText(error));
      }
    },

    async moveToFolder(ownerId, imageId, folder) {
      try {
        const image = await galleryApi.patch(imageId, { accountId: memberId(), folder });
        replace(ownerId, image);
        forgetFolder(ownerId, folder);
        // The answer does not say which folders are left: the list of them is read.
        void get().loadFolders({ id: ownerId, username: image.owner.username });
        return true;
      } catch (error) {
        console.warn(saveFailureText(error));
        return false;
      }
    },

    async reorder(ownerId, part) {
      // The part's order before, in the list that holds all of it ('All' or the folder shown).
      const gallery = get().galleries[ownerId];
      const named = new Set(part);
      const holder = [gallery, ...Object.values(gallery?.byFolder ?? {})].find(
        (list) => list && part.every((id) => list.items.some((image) => image.id === id)),
      );
      const before = (holder?.items ?? []).map((image) => image.id).filter((id) => named.has(id));
      putInOrder(ownerId, part);
      // One image dragged is sent as a move, which holds wherever both images are, loaded or not;
      // anything else as the part's new order, which hands out the places that part held
      // (docs/decisions.md "A paged gallery").
      const move = singleMove(before, part);
      try {
        await galleryApi.reorder({
          accountId: memberId(),
          userId: ownerId,
          ...(move ?? { order: part }),
        });
        // No socket event carries an order: this browser's other tabs hear of it here.
        postGalleryOrder({ ownerId, order: part });
      } catch (error) {
        console.warn('Could not save the new order', error);
      }
    },

    showNotice(ownerId, text) {
      set((state) => ({ notice: { ...state.notice, [ownerId]: text } }));
      galleryServer.debounce(
        `notice:${ownerId}`,
        () => set((state) => ({ notice: without(state.notice, ownerId) })),
        NOTICE_MS,
      );
    },
  };
};
