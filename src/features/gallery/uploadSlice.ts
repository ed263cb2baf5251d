/**
 * Uploading (docs/product.md "Uploads"): a tile per file at once, in the
 * order picked; each file checked in the browser, then sent, three at a time; each outcome on its
 * own tile (gone into the grid, kept offline until the network is back, or an error kept until
 * dismissed, with Retry); one status line.
 */
import pLimit, { type LimitFunction } from 'p-limit';
import type { StateCreator } from 'zustand';
import { DEFAULT_FOLDER } from '../../contracts/constants.ts';
import { UPLOAD_STATUS_CLEAR_MS } from '../../lib/constants.ts';
import { useOutboxItems } from '../offline/outbox.ts';
import type { GalleryOwnerRef } from './api.ts';
import { checkImage, rejectedTooLarge, tooLarge } from './checkImage.ts';
import { NO_ROOM, estimateSpace, fitOnDevice, noRoomFor } from './deviceSpace.ts';
import { canKeepOffline, knownOffline } from './offlineUpload.ts';
import { memberId } from './member.ts';
import { galleryServer, without } from './pages.ts';
import type { GalleryState } from './store.ts';
import { UploadError, canRetryUpload, uploadFailureMessage, uploadFile } from './upload.ts';

/**
 * Files sent at once, the server's UPLOADS_AT_ONCE. One shared uplink gains little from more;
 * three keep the link busy while the server works on one file and the next starts.
 */
const UPLOAD_CONCURRENCY = 3;

/** A file's tile until its photo joins the grid; it keeps what sending it (again) needs. */
export interface PendingUpload {
  key: string;
  ownerId: string;
  name: string;
  loaded: number;
  total: number;
  /** The file to preview once it decoded, or null (not yet, or the browser cannot show it). */
  preview: File | null;
  /**
   * `held` (shared from another app, until the member presses Upload), `waiting` for its turn,
   * `sending`, `queued` (kept offline by the service worker until the network is back), or
   * `failed` with its text until dismissed.
   */
  phase: 'held' | 'waiting' | 'sending' | 'queued' | 'failed';
  /** The file's Idempotency-Key: one per file, the same on every retry of it. */
  sendKey: string;
  /** A queued file has been seen in the member's outbox: once it leaves it, it has settled. */
  listed?: boolean | undefined;
  /** A shared file's key on the device, forgotten once it is sent on or removed. */
  sharedId?: number | undefined;
  /** `Failed {file}: {message}` or `Rejected {file}: …`. */
  error?: string | undefined;
  /** Whether Retry is offered: not for a file the browser or the server refused, sending it again cannot help. */
  canRetry?: boolean | undefined;
  /** When the server said to try again (a 429 or 503's Retry-After, epoch ms): Retry waits until then. */
  retryAt?: number | undefined;
  file: File;
  owner: GalleryOwnerRef;
  /** accountId, userId, username and the folder: docs/product.md "Uploads". */
  fields: Record<string, string>;
  /** Whether the browser's checks have passed already (a retry skips them). */
  checked: boolean;
}

/** A file shared into Orbit, with its key on the device. */
interface SharedUpload {
  id: number;
  file: File;
}

/** Forgets shared files on the device; IndexedDB loads only when a share is in play. */
function forgetShared(keys: readonly (number | undefined)[]): void {
  const ids = keys.filter((id) => id !== undefined);
  if (ids.length === 0) return;
  void import('../../lib/idb.ts').then((idb) => idb.forgetSharedFiles(ids)).catch(() => undefined);
}

interface UploadOptions {
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
  /**
   * Shows files shared from another app as tiles that wait for Upload; one the browser refuses
   * says so on its tile, as if picked.
   */
  holdShared: (owner: GalleryOwnerRef, files: readonly SharedUpload[]) => Promise<void>;
  /** Sends this gallery's held files to the folder, as if just picked; resolves like `upload`. */
  sendHeld: (owner: GalleryOwnerRef, options: UploadOptions) => Promise<void>;
  /** Removes a held file, here and on the device. */
  removeHeld: (key: string) => void;
  /** Sends a failed file again; resolves like `upload`. */
  retryUpload: (key: string) => Promise<void>;
  /** Removes a failed file's tile. */
  dismissUpload: (key: string) => void;
  /** Stops this gallery's uploads and drops their tiles (the page is leaving). */
  cancelUploads: (ownerId: string) => void;
  cancelAllUploads: () => void;
}

const NOT_ALLOWED = 'Not allowed to upload here.';
const NO_FILES = 'No files selected.';

/**
 * One gallery's sending: at most three files on the wire through `p-limit`, what stops them, and
 * the `n of m` of the status line.
 */
interface Run {
  limit: LimitFunction;
  controller: AbortController;
  /** Files of this run, and how many of them have an outcome. */
  total: number;
  settled: number;
  /** Files given to the limit and not settled yet. */
  going: number;
  idle: (() => void)[];
  /**
   * No file starts before this time (epoch ms): the server asked to wait (429 or 503 with
   * Retry-After), and the files behind would only be refused the same way.
   */
  pausedUntil: number;
}

/** Resolves once the run has nothing waiting or on the wire (or was cancelled). */
function whenIdle(run: Run): Promise<void> {
  if (run.going === 0) return Promise.resolve();
  return new Promise((resolve) => run.idle.push(resolve));
}

/** Waits until `at` (epoch ms), or less when `signal` aborts. */
function waitUntil(at: number, signal: AbortSignal): Promise<void> {
  const ms = at - Date.now();
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

export const createUploadSlice: StateCreator<GalleryState, [], [], UploadSlice> = (set, get) => {
  /** Each gallery's sending; a gallery's run ends when its last file has an outcome. */
  const runs: Record<string, Run> = {};
  let nextKey = 0;

  const statusKey = (ownerId: string) => `upload-status:${ownerId}`;
  /** Shows a status text; `clear` lets it go 2.2 s later, otherwise it stays while files are working. */
  const say = (ownerId: string, text: string, clear: boolean) => {
    galleryServer.cancel(statusKey(ownerId));
    set((state) => ({ uploadStatus: { ...state.uploadStatus, [ownerId]: text } }));
    if (!clear) return;
    galleryServer.debounce(
      statusKey(ownerId),
      () => set((state) => ({ uploadStatus: without(state.uploadStatus, ownerId) })),
      UPLOAD_STATUS_CLEAR_MS,
    );
  };
  /** `Uploading n of m…`: n is the file that finishes next (those with an outcome, plus one). */
  const sayProgress = (ownerId: string, run: Run) =>
    say(ownerId, `Uploading ${Math.min(run.settled + 1, run.total)} of ${run.total}…`, false);

  /** A new tile for `file`, in the phase `state` says. */
  const newTile = (
    owner: GalleryOwnerRef,
    file: File,
    fields: Record<string, string>,
    state: Pick<PendingUpload, 'phase'> & Partial<PendingUpload>,
  ): PendingUpload => ({
    key: `upload-${nextKey++}`,
    sendKey: crypto.randomUUID(),
    ownerId: owner.id,
    name: file.name,
    loaded: 0,
    total: file.size,
    preview: null,
    file,
    owner,
    fields,
    checked: false,
    ...state,
  });
  /** Puts a gallery's new tiles after its others, the gallery's before any other gallery's. */
  const addTiles = (ownerId: string, tiles: PendingUpload[]) =>
    set((state) => ({
      uploads: [
        ...state.uploads.filter((item) => item.ownerId === ownerId),
        ...tiles,
        ...state.uploads.filter((item) => item.ownerId !== ownerId),
      ],
    }));
  const tile = (key: string) => get().uploads.find((item) => item.key === key);
  const patch = (key: string, change: Partial<PendingUpload>) =>
    set((state) => ({
      uploads: state.uploads.map((item) => (item.key === key ? { ...item, ...change } : item)),
    }));
  const drop = (key: string) =>
    set((state) => ({ uploads: state.uploads.filter((item) => item.key !== key) }));
  const fail = (key: string, error: string, canRetry: boolean, retryAt?: number) =>
    patch(key, { phase: 'failed', error, canRetry, loaded: 0, retryAt });

  const runOf = (ownerId: string): Run =>
    (runs[ownerId] ??= {
      limit: pLimit(UPLOAD_CONCURRENCY),
      controller: new AbortController(),
      total: 0,
      settled: 0,
      going: 0,
      idle: [],
      pausedUntil: 0,
    });

  /** One file's outcome: counted, and the status moves on or, when all is settled, says the last. */
  const settle = (ownerId: string, run: Run, text: string) => {
    run.settled += 1;
    run.going -= 1;
    if (run.going > 0) {
      sayProgress(ownerId, run);
      return;
    }
    delete runs[ownerId];
    say(ownerId, text, true);
    for (const resolve of run.idle.splice(0)) resolve();
  };

  /** Checks (once) and sends one file; its tile ends up gone or failed. */
  const send = async (key: string, run: Run): Promise<string> => {
    const { signal } = run.controller;
    // The server asked to wait: a file does not start before then.
    await waitUntil(run.pausedUntil, signal);
    const job = tile(key);
    if (!job || signal.aborted) return '';
    const { file, owner, fields } = job;
    if (!job.checked) {
      const check = await checkImage(file);
      if (signal.aborted) return '';
      if (!check.ok) {
        fail(key, check.reason, false);
        return check.reason;
      }
      patch(key, { checked: true, ...(check.preview ? { preview: file } : {}) });
    }
    // Offline the file waits on the device: only if it fits, with room to spare, is it handed over.
    if (knownOffline() && canKeepOffline() && !(await startIfRoom(key, file.size))) {
      if (signal.aborted) return '';
      fail(key, noRoomFor(file.name), true);
      return NO_ROOM;
    }
    if (signal.aborted) return '';
    patch(key, { phase: 'sending', loaded: 0, total: file.size });
    sayProgress(owner.id, run);
    try {
      const outcome = await uploadFile({
        file,
        key: job.sendKey,
        fields,
        signal,
        onProgress: (loaded, total) => patch(key, { loaded, total }),
      });
      if (outcome.queued) {
        // Kept in the outbox: the tile waits until the outbox has sent it (or it was discarded).
        patch(key, { phase: 'queued', loaded: file.size, total: file.size });
        void useOutboxItems.getState().load();
        return `Waiting to send ${file.name}`;
      }
      // The answer carries the new photo; the event the server sends every watching tab, this one
      // too, brings the same photo and changes nothing more.
      if (outcome.image) get().receiveImage(outcome.image, { created: true });
      drop(key);
      return `Uploaded ${file.name}`;
    } catch (error) {
      if (signal.aborted) return '';
      const text = `Failed ${file.name}: ${uploadFailureMessage(error)}`;
      const wait = error instanceof UploadError ? error.retryAfterMs : undefined;
      const retryAt = wait === undefined ? undefined : Date.now() + wait;
      if (retryAt !== undefined) run.pausedUntil = Math.max(run.pausedUntil, retryAt);
      fail(key, text, canRetryUpload(error), retryAt);
      return text;
    }
  };

  /** The space checks, one after the other, so two files never both count on the same room. */
  let spaceChecks: Promise<unknown> = Promise.resolve();
  /**
   * Whether the file of tile `key` (`size` bytes) fits on the device beside what is kept and the
   * files handed to the worker that it has not kept yet; one that fits is marked sending at once,
   * so the next check counts it. Where the browser does not tell, the file is tried.
   */
  const startIfRoom = (key: string, size: number): Promise<boolean> => {
    const check = spaceChecks.then(async () => {
      const estimate = await estimateSpace();
      const pending = get()
        .uploads.filter((item) => item.phase === 'sending')
        .reduce((sum, item) => sum + item.file.size, 0);
      const fits = !estimate || (fitOnDevice([size], estimate, pending)[0] ?? false);
      if (fits && tile(key)) patch(key, { phase: 'sending', loaded: 0, total: size });
      return fits;
    });
    spaceChecks = check.catch(() => undefined);
    return check;
  };

  // A queued file settles when it leaves the member's outbox: sent (the page reads its gallery
  // again), refused (the outbox notice has the server's words) or discarded.
  useOutboxItems.subscribe(({ items }) => {
    const waiting = new Set(items.map((item) => item.key));
    for (const item of get().uploads) {
      if (item.phase !== 'queued') continue;
      if (waiting.has(item.sendKey)) {
        if (!item.listed) patch(item.key, { listed: true });
      } else if (item.listed) drop(item.key);
    }
  });

  /** Hands files to the run's limit, three on the wire at once. */
  const enqueue = (ownerId: string, run: Run, keys: readonly string[]) => {
    run.going += keys.length;
    for (const key of keys) {
      void run
        .limit(() => send(key, run))
        .then((text) => {
          if (!run.controller.signal.aborted) settle(ownerId, run, text);
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
      const tiles: PendingUpload[] = files.map((file) =>
        tooLarge(file)
          ? newTile(owner, file, fields, {
              phase: 'failed',
              error: rejectedTooLarge(file.name),
              canRetry: false,
            })
          : newTile(owner, file, fields, { phase: 'waiting' }),
      );
      const run = runOf(owner.id);
      addTiles(owner.id, tiles);
      const waiting = tiles.filter((item) => item.phase === 'waiting').map((item) => item.key);
      run.total += files.length;
      run.settled += files.length - waiting.length;
      if (waiting.length === 0) {
        // Nothing to send: the refusal is the outcome, unless other files are still going.
        if (run.going > 0) sayProgress(owner.id, run);
        else {
          delete runs[owner.id];
          say(owner.id, tiles.at(-1)?.error ?? '', true);
        }
        return whenIdle(run);
      }
      say(owner.id, `Selected ${files.length} file(s)…`, false);
      enqueue(owner.id, run, waiting);
      return whenIdle(run);
    },

    async holdShared(owner, files) {
      const known = new Set(get().uploads.map((item) => item.sharedId));
      const tiles: PendingUpload[] = files
        .filter(({ id }) => !known.has(id))
        .map(({ id, file }) => newTile(owner, file, {}, { phase: 'held', sharedId: id }));
      if (tiles.length === 0) return;
      addTiles(owner.id, tiles);
      // The same checks as a picked file's; a refused one can never be sent, so it goes from the device.
      await Promise.all(
        tiles.map(async ({ key, file, sharedId }) => {
          const check = await checkImage(file);
          if (tile(key)?.phase !== 'held') return;
          if (check.ok) {
            if (check.preview) patch(key, { preview: file });
            return;
          }
          fail(key, check.reason, false);
          forgetShared([sharedId]);
        }),
      );
    },

    sendHeld(owner, options) {
      const held = get().uploads.filter(
        (item) => item.ownerId === owner.id && item.phase === 'held',
      );
      if (!options.canEdit) return get().upload(owner, [], options);
      set((state) => ({ uploads: state.uploads.filter((item) => !held.includes(item)) }));
      // In the upload flow now: a failure keeps its tile and Retry, as for a picked file.
      forgetShared(held.map((item) => item.sharedId));
      return get().upload(
        owner,
        held.map((item) => item.file),
        options,
      );
    },

    removeHeld(key) {
      const item = tile(key);
      if (item?.phase !== 'held') return;
      drop(key);
      forgetShared([item.sharedId]);
    },

    retryUpload(key) {
      const item = tile(key);
      if (!item || item.phase !== 'failed' || !item.canRetry) return Promise.resolve();
      // Before the server's Retry-After has passed, sending again would only be refused again.
      if (item.retryAt !== undefined && Date.now() < item.retryAt) return Promise.resolve();
      const run = runOf(item.ownerId);
      patch(key, {
        phase: 'waiting',
        loaded: 0,
        error: undefined,
        canRetry: undefined,
        retryAt: undefined,
      });
      run.total += 1;
      sayProgress(item.ownerId, run);
      enqueue(item.ownerId, run, [key]);
      return whenIdle(run);
    },

    dismissUpload(key) {
      if (tile(key)?.phase === 'failed') drop(key);
    },

    cancelUploads(ownerId) {
      const run = runs[ownerId];
      delete runs[ownerId];
      run?.controller.abort();
      run?.limit.clearQueue();
      galleryServer.cancel(statusKey(ownerId));
      set((state) => ({
        uploads: state.uploads.filter((item) => item.ownerId !== ownerId),
        uploadStatus: without(state.uploadStatus, ownerId),
      }));
      for (const resolve of run?.idle.splice(0) ?? []) resolve();
    },

    cancelAllUploads() {
      const owners = new Set([...Object.keys(runs), ...get().uploads.map((item) => item.ownerId)]);
      for (const ownerId of owners) get().cancelUploads(ownerId);
    },
  };
};
