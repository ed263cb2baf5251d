/** Uploading (SPEC §4.9, §5 "Gallery upload", §8): placeholders at once, one file after another, status texts. */
import type { StateCreator } from 'zustand';
import {
  DEFAULT_FOLDER,
  MAX_UPLOAD_BYTES,
  UPLOAD_STATUS_CLEAR_MS,
} from '../../contracts/constants.ts';
import type { GalleryOwnerRef } from './api.ts';
import { postGalleryChange } from './channel.ts';
import { readImage } from './images.ts';
import { memberId } from './member.ts';
import type { GalleryState } from './store.ts';
import { uploadFailureMessage, uploadFile } from './upload.ts';

/** A file on its way: shown at once as a dimmed thumbnail with its progress. */
export interface PendingUpload {
  key: string;
  ownerId: string;
  name: string;
  loaded: number;
  total: number;
  /** A local preview of the file, or '' where the browser cannot make one. */
  preview: string;
}

export interface UploadOptions {
  /** Only the owner may upload (DECISIONS "Gallery"). */
  canEdit: boolean;
  folder: string;
}

export interface UploadSlice {
  uploads: PendingUpload[];
  /** The status line of each gallery's uploads. */
  uploadStatus: Record<string, string>;
  upload: (owner: GalleryOwnerRef, files: readonly File[], options: UploadOptions) => Promise<void>;
  /** Stops this gallery's uploads and drops their placeholders (the page is leaving). */
  cancelUploads: (ownerId: string) => void;
  cancelAllUploads: () => void;
}

export const NOT_ALLOWED = 'Not allowed to upload here.';
export const NO_FILES = 'No files selected.';

const controllers = new Map<string, AbortController>();
const running = new Map<string, number>();
const clearTimers = new Map<string, ReturnType<typeof setTimeout>>();
let nextKey = 0;

function previewOf(file: File): string {
  try {
    return typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : '';
  } catch {
    return '';
  }
}

function dropPreview(upload: PendingUpload | undefined) {
  if (upload?.preview && typeof URL.revokeObjectURL === 'function')
    URL.revokeObjectURL(upload.preview);
}

export const createUploadSlice: StateCreator<GalleryState, [], [], UploadSlice> = (set, get) => {
  /** Lets the status text go 2.2 s from now. */
  const clearLater = (ownerId: string) => {
    clearTimeout(clearTimers.get(ownerId));
    clearTimers.set(
      ownerId,
      setTimeout(() => {
        set((state) => {
          const uploadStatus = { ...state.uploadStatus };
          delete uploadStatus[ownerId];
          return { uploadStatus };
        });
      }, UPLOAD_STATUS_CLEAR_MS),
    );
  };
  /** Shows a status text; `clear` lets it go 2.2 s later, otherwise it stays while files are working. */
  const say = (ownerId: string, text: string, clear: boolean) => {
    clearTimeout(clearTimers.get(ownerId));
    set((state) => ({ uploadStatus: { ...state.uploadStatus, [ownerId]: text } }));
    if (clear) clearLater(ownerId);
  };
  const progress = (key: string, loaded: number, total: number) =>
    set((state) => ({
      uploads: state.uploads.map((item) => (item.key === key ? { ...item, loaded, total } : item)),
    }));
  const drop = (key: string) =>
    set((state) => {
      dropPreview(state.uploads.find((item) => item.key === key));
      return { uploads: state.uploads.filter((item) => item.key !== key) };
    });

  return {
    uploads: [],
    uploadStatus: {},

    async upload(owner, files, { canEdit, folder }) {
      if (!canEdit) return say(owner.id, NOT_ALLOWED, true);
      if (files.length === 0) return say(owner.id, NO_FILES, true);
      const me = memberId();
      const controller = controllers.get(owner.id) ?? new AbortController();
      controllers.set(owner.id, controller);
      running.set(owner.id, (running.get(owner.id) ?? 0) + 1);
      say(owner.id, `Selected ${files.length} file(s)…`, false);

      // Oversized files are refused before anything is sent, so they get no placeholder.
      const pending = files.map((file) =>
        file.size > MAX_UPLOAD_BYTES
          ? null
          : {
              key: `upload-${nextKey++}`,
              ownerId: owner.id,
              name: file.name,
              loaded: 0,
              total: file.size,
              preview: previewOf(file),
            },
      );
      const placeholders = pending.filter((item): item is PendingUpload => item !== null);
      set((state) => ({ uploads: [...placeholders.slice().reverse(), ...state.uploads] }));

      const fields: Record<string, string> = {
        accountId: me,
        userId: owner.id,
        username: owner.username,
      };
      if (folder && folder !== DEFAULT_FOLDER) fields.folder = folder;

      for (const [index, file] of files.entries()) {
        const item = pending[index];
        if (!item) {
          say(owner.id, `Rejected ${file.name}: >20MB`, false);
          continue;
        }
        if (controller.signal.aborted) break;
        try {
          const body = await uploadFile({
            file,
            fields,
            signal: controller.signal,
            onProgress: (loaded, total) => progress(item.key, loaded, total),
          });
          const image = readImage(body);
          if (image) {
            get().receiveImage(image, { created: true });
            postGalleryChange({ type: 'image', image });
          }
          drop(item.key);
          say(owner.id, `Uploaded ${file.name}`, false);
          void get().load(owner);
          void get().loadFolders(owner);
        } catch (error) {
          if (controller.signal.aborted) break;
          drop(item.key);
          say(owner.id, `Failed ${file.name}: ${uploadFailureMessage(error)}`, false);
        }
      }

      const left = (running.get(owner.id) ?? 1) - 1;
      running.set(owner.id, left);
      if (left === 0) {
        if (controllers.get(owner.id) === controller) controllers.delete(owner.id);
        if (!controller.signal.aborted) clearLater(owner.id);
      }
    },

    cancelUploads(ownerId) {
      controllers.get(ownerId)?.abort();
      controllers.delete(ownerId);
      clearTimeout(clearTimers.get(ownerId));
      set((state) => {
        for (const item of state.uploads) if (item.ownerId === ownerId) dropPreview(item);
        const uploadStatus = { ...state.uploadStatus };
        delete uploadStatus[ownerId];
        return { uploads: state.uploads.filter((item) => item.ownerId !== ownerId), uploadStatus };
      });
    },

    cancelAllUploads() {
      for (const ownerId of [...controllers.keys()]) get().cancelUploads(ownerId);
      for (const timer of clearTimers.values()) clearTimeout(timer);
      clearTimers.clear();
    },
  };
};
