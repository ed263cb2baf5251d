import { useEffect, useRef, useState } from 'react';
import { useObjectUrl } from '../../components/useObjectUrl.ts';
import { formatBytes } from './deviceSpace.ts';
import { useUploadNeedsNetwork } from './offlineUpload.ts';
import { useGallery } from './store.ts';
import type { PendingUpload } from './uploadSlice.ts';

/** A file's tile in the grid while it waits or goes (docs/product.md "Uploads"). */
export function UploadTile({ upload }: { upload: PendingUpload }) {
  if (upload.phase === 'held') return <HeldTile upload={upload} />;
  if (upload.phase === 'queued') return <QueuedTile upload={upload} />;
  return <PendingTile upload={upload} />;
}

/**
 * A file kept on the device by the offline outbox until the network is back
 * (docs/decisions.md "The offline outbox"); it becomes its photo once sent.
 */
function QueuedTile({ upload }: { upload: PendingUpload }) {
  return (
    <li className="photo-tile pending queued" aria-label={`${upload.name} waiting to send`}>
      <Preview upload={upload} />
      <span className="pending-label">Waiting to send</span>
    </li>
  );
}

/**
 * How many photos wait in the outbox for this gallery and the room they take on the device, or
 * nothing when none wait.
 */
export function WaitingUploadsNote({ uploads }: { uploads: readonly PendingUpload[] }) {
  const queued = uploads.filter((upload) => upload.phase === 'queued');
  if (queued.length === 0) return null;
  const bytes = queued.reduce((sum, upload) => sum + upload.file.size, 0);
  return (
    <p className="upload-waiting">
      {queued.length === 1 ? '1 photo waits' : `${queued.length} photos wait`} to be sent when
      you&apos;re back online ({formatBytes(bytes)} kept on this device).
    </p>
  );
}

/** A shared file waiting for the member's Upload, with Remove. */
function HeldTile({ upload }: { upload: PendingUpload }) {
  const remove = useGallery((state) => state.removeHeld);
  return (
    <li className="photo-tile pending held" aria-label={`${upload.name} shared, not uploaded yet`}>
      <Preview upload={upload} />
      <span className="pending-label">shared</span>
      <button
        type="button"
        className="button held-remove"
        aria-label={`Remove ${upload.name}`}
        onClick={() => remove(upload.key)}
      >
        Remove
      </button>
    </li>
  );
}

export const isFailed = (upload: PendingUpload) => upload.phase === 'failed';

/**
 * The files that did not make it, above the grid instead of in it, so they take none of its
 * places: each with its words, Dismiss, and Retry where sending again can help.
 */
export function UploadFailures({ uploads }: { uploads: readonly PendingUpload[] }) {
  const failed = uploads.filter(isFailed);
  if (failed.length === 0) return null;
  return (
    <ul className="upload-failures" aria-label="Not uploaded">
      {failed.map((upload) => (
        <FailedUpload key={upload.key} upload={upload} />
      ))}
    </ul>
  );
}

function Preview({ upload }: { upload: PendingUpload }) {
  // The preview appears only once the file decoded, so a file that is no picture never shows a broken image.
  const preview = useObjectUrl(upload.preview);
  return preview ? <img src={preview} alt="" /> : <span className="pending-blank" />;
}

/** Dimmed, marked 'uploading…' with its real progress, or 'waiting…' until its turn. */
function PendingTile({ upload }: { upload: PendingUpload }) {
  const sending = upload.phase === 'sending';
  const percent = sending && upload.total ? Math.round((upload.loaded / upload.total) * 100) : 0;
  return (
    <li
      className="photo-tile pending"
      aria-label={`${upload.name} ${sending ? 'uploading' : 'waiting'}`}
    >
      <Preview upload={upload} />
      <span className="pending-label">{sending ? 'uploading…' : 'waiting…'}</span>
      <progress
        className="pending-progress"
        max={100}
        value={percent}
        aria-label={`Uploading ${upload.name}`}
      >
        {percent}%
      </progress>
    </li>
  );
}

/** The refusal or failure in plain words, kept until dismissed; Retry where sending again can help. */
function FailedUpload({ upload }: { upload: PendingUpload }) {
  const retry = useGallery((state) => state.retryUpload);
  const dismiss = useGallery((state) => state.dismissUpload);
  const needsNetwork = useUploadNeedsNetwork();
  const waiting = useUntil(upload.retryAt);
  const tile = useRef<HTMLLIElement>(null);
  /**
   * Both actions take the buttons away: focus moves to the next tile's (or the previous one's), or,
   * after the last, to the Upload button beside the gallery.
   */
  const keepFocus = () => {
    const item = tile.current;
    if (!item?.contains(document.activeElement)) return;
    const neighbour = item.nextElementSibling ?? item.previousElementSibling;
    (neighbour
      ? neighbour.querySelector<HTMLElement>('button:not([disabled])')
      : nearestUploadButton(item)
    )?.focus();
  };
  return (
    <li ref={tile} className="upload-failed" aria-label={`${upload.name} not uploaded`}>
      <Preview upload={upload} />
      <div className="upload-failure">
        <p className="upload-error" role="alert">
          {upload.error}
        </p>
        <div className="upload-actions">
          {upload.canRetry && (
            <button
              type="button"
              className="button primary"
              {...needsNetwork(waiting)}
              aria-label={`Retry ${upload.name}`}
              onClick={() => {
                keepFocus();
                void retry(upload.key);
              }}
            >
              Retry
            </button>
          )}
          <button
            type="button"
            className="button"
            aria-label={`Dismiss ${upload.name}`}
            onClick={() => {
              keepFocus();
              dismiss(upload.key);
            }}
          >
            Dismiss
          </button>
        </div>
      </div>
    </li>
  );
}

/** The Upload button of the gallery `element` is in: the nearest one around it. */
function nearestUploadButton(element: HTMLElement): HTMLElement | null {
  for (let around = element.parentElement; around; around = around.parentElement) {
    const button = around.querySelector<HTMLElement>('[data-upload-button]');
    if (button) return button;
  }
  return null;
}

/** True until `time` (epoch ms) has passed, then false; false at once without a time. */
function useUntil(time: number | undefined): boolean {
  const [passed, setPassed] = useState<number | undefined>(undefined);
  useEffect(() => {
    if (time === undefined) return undefined;
    const timer = setTimeout(() => setPassed(time), Math.max(0, time - Date.now()));
    return () => clearTimeout(timer);
  }, [time]);
  return time !== undefined && passed !== time;
}
