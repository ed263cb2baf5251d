/**
 * Uploading (docs/product.md "Uploads"): a tile per file at once, in the
 * order picked; each file checked in the browser, then sent, three at a time; each outcome on its
 * own tile (gone into the grid, or an error kept until dismissed, with Retry); one status line.
 */
import type { StateCreator } from 'zustand';
import { DEFAULT_FOLDER, UPLOAD_STATUS_CLEAR_MS } from '../../contracts/constants.ts';
import type { GalleryOwnerRef } from './api.ts';
import { postGalleryChange } from './channel.ts';
import { checkImage, rejectedTooLarge, tooLarge } from './checkImage.ts';
import { readImage } from './images.ts';
import { memberId } from './member.ts';
import type { GalleryState } from './store.ts';
import { UploadError, uploadFailureMessage, uploadFile } from './upload.ts';

/**
 * Files sent at once. One shared uplink gains little from more; three keep the link busy while
 * the server works on one file and the next starts.
 */
export const UPLOAD_CONCURRENCY = 3;

/** A file's tile until its photo joins the grid. */
export interface PendingUpload {
  key: string;
  ownerId: string;
  name: string;
  loaded: number;
  total: number;
  /** The file to preview once it decoded, or null (not yet, or the browser cannot show it). */
  preview: File | null;
  /** `waiting` for its turn, `sending`, or `failed` with its text until dismissed. */
  phase: 'waiting' | 'sending' | 'failed';
  /** `Failed {file}: {message}` or `Rejected {file}: …`. */
  error?: string | undefined;
  /** Whether Retry is offered: not for a file the browser refused, sending it again cannot help. */
  canRetry?: boolean | undefined;
  /** When the server said to try again (a 429 or 503's Retry-After, epoch ms): Retry waits until then. */
  retryAt?: number | undefined;
}

export interface UploadOptions {
  /** Only the owner may upload (docs/decisions.md "Only the owner edits a gallery"). */
  canEdit: boolean;
  folder: string;
}

export interface UploadSlice {
  uploads: PendingUpload[];
  /** The status line of each gallery's uploads. */
  uploadStatus: Record<string, string>;
  /** Starts the files; resolves once this gallery has nothing left to send. */
  upload: (owner: GalleryOwnerRef, files: readonly File[], options: UploadOptions) => Promise<void>;
  /** Sends a failed file again; resolves like `upload`. */
  retryUpload: (key: string) => Promise<void>;
  /** Removes a failed file's tile. */
  dismissUpload: (key: string) => void;
  /** Stops this gallery's uploads and drops their tiles (the page is leaving). */
  cancelUploads: (ownerId: string) => void;
  cancelAllUploads: () => void;
}

export const NOT_ALLOWED = 'Not allowed to upload here.';
export const NO_FILES = 'No files selected.';

/** What a tile needs to be sent (again); kept out of the store, a File is not state. */
interface Job {
  file: File;
  owner: GalleryOwnerRef;
  fields: Record<string, string>;
  /** Whether the browser's checks have passed already (a retry skips them). */
  checked: boolean;
}

/** One gallery's work: what waits, how many are on the wire, and the `n of m` of the status. */
interface Run {
  controller: AbortController;
  queue: string[];
  active: number;
  /** Files of this run, and how many of them have an outcome. */
  total: number;
  settled: number;
  /** The status text of the latest outcome, shown once everything is settled. */
  last: string;
  idle: (() => void)[];
  /**
   * No file starts before this time (epoch ms): the server asked to wait (429 or 503 with
   * Retry-After), and the files behind would only be refused the same way.
   */
  pausedUntil: number;
  resume: ReturnType<typeof setTimeout> | undefined;
}

const jobs = new Map<string, Job>();
const runs = new Map<string, Run>();
const clearTimers = new Map<string, ReturnType<typeof setTimeout>>();
let nextKey = 0;

function runOf(ownerId: string): Run {
  let run = runs.get(ownerId);
  if (!run) {
    run = {
      controller: new AbortController(),
      queue: [],
      active: 0,
      total: 0,
      settled: 0,
      last: '',
      idle: [],
      pausedUntil: 0,
      resume: undefined,
    };
    runs.set(ownerId, run);
  }
  return run;
}

/** Resolves once the run has nothing waiting or on the wire (or was cancelled). */
function whenIdle(run: Run): Promise<void> {
  if (run.active === 0 && run.queue.length === 0) return Promise.resolve();
  return new Promise((resolve) => run.idle.push(resolve));
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
  /** `Uploading n of m…`: n is the file that finishes next (those with an outcome, plus one). */
  const sayProgress = (ownerId: string, run: Run) =>
    say(ownerId, `Uploading ${Math.min(run.settled + 1, run.total)} of ${run.total}…`, false);

  const patch = (key: string, change: Partial<PendingUpload>) =>
    set((state) => ({
      uploads: state.uploads.map((item) => (item.key === key ? { ...item, ...change } : item)),
    }));
  const drop = (key: string) => {
    jobs.delete(key);
    set((state) => ({ uploads: state.uploads.filter((item) => item.key !== key) }));
  };
  const fail = (key: string, error: string, canRetry: boolean, retryAt?: number) =>
    patch(key, { phase: 'failed', error, canRetry, loaded: 0, retryAt });

  /** One file's outcome: counted, and the status moves on or, when all is settled, says the last. */
  const settle = (ownerId: string, run: Run, text: string) => {
    run.settled += 1;
    run.last = text;
    if (run.active > 0 || run.queue.length > 0) {
      sayProgress(ownerId, run);
      return;
    }
    runs.delete(ownerId);
    say(ownerId, text, true);
    for (const resolve of run.idle.splice(0)) resolve();
  };

  /** Checks (once) and sends one file; its tile ends up gone or failed. */
  const send = async (key: string, run: Run): Promise<string> => {
    const job = jobs.get(key);
    if (!job) return '';
    const { file, owner, fields } = job;
    const { signal } = run.controller;
    if (!job.checked) {
      const check = await checkImage(file);
      if (signal.aborted) return '';
      if (!check.ok) {
        fail(key, check.reason, false);
        return check.reason;
      }
      job.checked = true;
      if (check.preview) patch(key, { preview: file });
    }
    patch(key, { phase: 'sending', loaded: 0, total: file.size });
    sayProgress(owner.id, run);
    try {
      const body = await uploadFile({
        file,
        fields,
        signal,
        onProgress: (loaded, total) => patch(key, { loaded, total }),
      });
      const image = readImage(body);
      if (image) {
        get().receiveImage(image, { created: true });
        postGalleryChange({ type: 'image', image });
      }
      drop(key);
      void get().load(owner);
      void get().loadFolders(owner);
      return `Uploaded ${file.name}`;
    } catch (error) {
      if (signal.aborted) return '';
      const text = `Failed ${file.name}: ${uploadFailureMessage(error)}`;
      const wait = error instanceof UploadError ? error.retryAfterMs : undefined;
      const retryAt = wait === undefined ? undefined : Date.now() + wait;
      if (retryAt !== undefined) run.pausedUntil = Math.max(run.pausedUntil, retryAt);
      fail(key, text, true, retryAt);
      return text;
    }
  };

  /** Starts waiting files while fewer than three are on the wire, unless the server asked to wait. */
  const pump = (ownerId: string, run: Run) => {
    const wait = run.pausedUntil - Date.now();
    if (wait > 0 && run.queue.length > 0) {
      clearTimeout(run.resume);
      run.resume = setTimeout(() => {
        run.resume = undefined;
        if (!run.controller.signal.aborted) pump(ownerId, run);
      }, wait);
      return;
    }
    while (run.active < UPLOAD_CONCURRENCY && run.queue.length > 0) {
      const key = run.queue.shift() as string;
      run.active += 1;
      void send(key, run).then((text) => {
        if (run.controller.signal.aborted) return;
        run.active -= 1;
        pump(ownerId, run);
        settle(ownerId, run, text);
      });
    }
  };

  return {
    uploads: [],
    uploadStatus: {},

    upload(owner, files, { canEdit, folder }) {
      if (!canEdit) {
        say(owner.id, NOT_ALLOWED, true);
        return Promise.resolve();
      }
      if (files.length === 0) {
        say(owner.id, NO_FILES, true);
        return Promise.resolve();
      }
      const fields: Record<string, string> = {
        accountId: memberId(),
        userId: owner.id,
        username: owner.username,
      };
      if (folder && folder !== DEFAULT_FOLDER) fields.folder = folder;

      // Every file gets its tile at once, in the order picked; one over 20 MB is refused on it.
      const tiles: PendingUpload[] = files.map((file) => {
        const key = `upload-${nextKey++}`;
        jobs.set(key, { file, owner, fields, checked: false });
        const base = { key, ownerId: owner.id, name: file.name, loaded: 0, total: file.size };
        return tooLarge(file)
          ? {
              ...base,
              preview: null,
              phase: 'failed',
              error: rejectedTooLarge(file.name),
              canRetry: false,
            }
          : { ...base, preview: null, phase: 'waiting' };
      });
      const run = runOf(owner.id);
      set((state) => ({
        uploads: [
          ...state.uploads.filter((item) => item.ownerId === owner.id),
          ...tiles,
          ...state.uploads.filter((item) => item.ownerId !== owner.id),
        ],
      }));
      const waiting = tiles.filter((tile) => tile.phase === 'waiting').map((tile) => tile.key);
      run.total += files.length;
      run.settled += files.length - waiting.length;
      if (waiting.length === 0) {
        // Nothing to send: the refusal is the outcome, unless other files are still going.
        if (run.active > 0) sayProgress(owner.id, run);
        else {
          runs.delete(owner.id);
          say(owner.id, tiles.at(-1)?.error ?? '', true);
        }
        return whenIdle(run);
      }
      say(owner.id, `Selected ${files.length} file(s)…`, false);
      run.queue.push(...waiting);
      pump(owner.id, run);
      return whenIdle(run);
    },

    retryUpload(key) {
      const item = get().uploads.find((upload) => upload.key === key);
      const job = jobs.get(key);
      if (!item || !job || item.phase !== 'failed' || !item.canRetry) return Promise.resolve();
      // Before the server's Retry-After has passed, sending again would only be refused again.
      if (item.retryAt !== undefined && Date.now() < item.retryAt) return Promise.resolve();
      const { id } = job.owner;
      const run = runOf(id);
      patch(key, {
        phase: 'waiting',
        loaded: 0,
        error: undefined,
        canRetry: undefined,
        retryAt: undefined,
      });
      run.total += 1;
      run.queue.push(key);
      sayProgress(id, run);
      pump(id, run);
      return whenIdle(run);
    },

    dismissUpload(key) {
      const item = get().uploads.find((upload) => upload.key === key);
      if (item?.phase === 'failed') drop(key);
    },

    cancelUploads(ownerId) {
      const run = runs.get(ownerId);
      runs.delete(ownerId);
      run?.controller.abort();
      clearTimeout(run?.resume);
      clearTimeout(clearTimers.get(ownerId));
      set((state) => {
        for (const item of state.uploads) {
          if (item.ownerId !== ownerId) continue;
          jobs.delete(item.key);
        }
        const uploadStatus = { ...state.uploadStatus };
        delete uploadStatus[ownerId];
        return { uploads: state.uploads.filter((item) => item.ownerId !== ownerId), uploadStatus };
      });
      for (const resolve of run?.idle.splice(0) ?? []) resolve();
    },

    cancelAllUploads() {
      const owners = new Set([...runs.keys(), ...get().uploads.map((item) => item.ownerId)]);
      for (const ownerId of owners) get().cancelUploads(ownerId);
      for (const timer of clearTimers.values()) clearTimeout(timer);
      clearTimers.clear();
    },
  };
};
