/** What members do to images (docs/product.md "Image viewer", "Uploads"): delete, react, caption, move and reorder. */
import type { StateCreator } from 'zustand';
import type { GalleryImageView as GalleryImage } from '../../contracts/gallery.ts';
import { deleteFailureText, galleryApi, saveFailureText } from './api.ts';
import { postGalleryChange } from './channel.ts';
import { type Reaction, reorderWithin, restoreAt, sortByOrder, toggleReaction } from './images.ts';
import { memberId } from './member.ts';
import type { GalleryState } from './store.ts';

/** How long a failed delete's message stays (docs/product.md "Errors" gives no figure). */
export const NOTICE_MS = 4_000;

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

/** Images being deleted stay hidden even if a reload or an event brings them back meanwhile. */
export const deleting = new Set<string>();
const reactionRound = new Map<string, number>();
const noticeTimers = new Map<string, ReturnType<typeof setTimeout>>();

export function resetEdits() {
  for (const timer of noticeTimers.values()) clearTimeout(timer);
  noticeTimers.clear();
  deleting.clear();
  reactionRound.clear();
}

type SetState = Parameters<StateCreator<GalleryState>>[0];
type GetState = Parameters<StateCreator<GalleryState>>[1];

/** Changes one owner's images, if that gallery is loaded here. */
export function imageUpdaters(set: SetState, get: GetState) {
  const update = (ownerId: string, change: (images: GalleryImage[]) => GalleryImage[]) =>
    set((state) => {
      const gallery = state.galleries[ownerId];
      if (!gallery) return {};
      return {
        galleries: {
          ...state.galleries,
          [ownerId]: { ...gallery, images: change(gallery.images) },
        },
      };
    });
  const find = (ownerId: string, imageId: string) =>
    get().galleries[ownerId]?.images.find((image) => image.id === imageId);
  const replace = (ownerId: string, image: GalleryImage) =>
    update(ownerId, (images) => images.map((item) => (item.id === image.id ? image : item)));
  return { update, find, replace };
}

export const createEditSlice: StateCreator<GalleryState, [], [], EditSlice> = (set, get) => {
  const { update, find, replace } = imageUpdaters(set, get);
  return {
    notice: {},
    async remove(ownerId, imageId) {
      const images = get().galleries[ownerId]?.images ?? [];
      const index = images.findIndex((image) => image.id === imageId);
      const image = images[index];
      if (!image) return false;
      deleting.add(imageId);
      update(ownerId, (list) => list.filter((item) => item.id !== imageId));
      try {
        await galleryApi.remove(image, memberId());
        postGalleryChange({ type: 'deleted', ownerId, id: imageId });
        return true;
      } catch (error) {
        update(ownerId, (list) => restoreAt(list, image, index));
        get().showNotice(ownerId, deleteFailureText(error));
        return false;
      } finally {
        deleting.delete(imageId);
      }
    },

    async react(ownerId, imageId, kind) {
      const me = memberId();
      const before = find(ownerId, imageId);
      if (!me || !before) return;
      const optimistic = toggleReaction(before, kind, me);
      replace(ownerId, optimistic);
      // Only the latest of several quick toggles may write the server's answer back.
      const round = (reactionRound.get(imageId) ?? 0) + 1;
      reactionRound.set(imageId, round);
      try {
        const image = await galleryApi.patch(imageId, {
          accountId: me,
          [kind]: optimistic[kind].includes(me),
        });
        if (reactionRound.get(imageId) !== round) return;
        replace(ownerId, image);
        postGalleryChange({ type: 'image', image });
      } catch (error) {
        if (reactionRound.get(imageId) !== round) return;
        const current = find(ownerId, imageId);
        if (current)
          replace(ownerId, { ...current, likes: before.likes, dislikes: before.dislikes });
        console.warn(saveFailureText(error));
      }
    },

    async saveCaption(ownerId, imageId, caption) {
      try {
        const image = await galleryApi.patch(imageId, { accountId: memberId(), caption });
        replace(ownerId, image);
        postGalleryChange({ type: 'image', image });
      } catch (error) {
        throw new Error(saveFailureText(error));
      }
    },

    async moveToFolder(ownerId, imageId, folder) {
      try {
        const image = await galleryApi.patch(imageId, { accountId: memberId(), folder });
        replace(ownerId, image);
        postGalleryChange({ type: 'image', image });
        void get().loadFolders({ id: ownerId, username: image.user.username });
        return true;
      } catch (error) {
        console.warn(saveFailureText(error));
        return false;
      }
    },

    async reorder(ownerId, part) {
      const images = get().galleries[ownerId]?.images ?? [];
      const order = reorderWithin(
        images.map((image) => image.id),
        part,
      );
      update(ownerId, (list) => sortByOrder(list, order));
      try {
        await galleryApi.reorder({ accountId: memberId(), userId: ownerId, order });
        postGalleryChange({ type: 'order', ownerId, order });
      } catch (error) {
        console.warn('Could not save the new order', error);
      }
    },

    showNotice(ownerId, text) {
      clearTimeout(noticeTimers.get(ownerId));
      set((state) => ({ notice: { ...state.notice, [ownerId]: text } }));
      noticeTimers.set(
        ownerId,
        setTimeout(() => {
          set((state) => {
            const notice = { ...state.notice };
            delete notice[ownerId];
            return { notice };
          });
        }, NOTICE_MS),
      );
    },
  };
};
