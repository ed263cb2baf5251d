import { useEffect, useRef } from 'react';
import type { GalleryOwnerRef } from './api.ts';
import { useUploadNeedsNetwork } from './offlineUpload.ts';
import { useGallery } from './store.ts';

interface UploadButtonProps {
  owner: GalleryOwnerRef;
  folder: string;
  canEdit: boolean;
}

/** Upload: picks several images at once and hands them to the store (docs/product.md "Gallery", "Uploads"). */
export function UploadButton({ owner, folder, canEdit }: UploadButtonProps) {
  const input = useRef<HTMLInputElement>(null);
  const upload = useGallery((state) => state.upload);
  const sendHeld = useGallery((state) => state.sendHeld);
  // Photos shared from another app wait on their tiles: Upload sends them to the folder chosen.
  const holding = useGallery((state) =>
    state.uploads.some((item) => item.ownerId === owner.id && item.phase === 'held'),
  );
  // Offline too where the service worker keeps what is sent then (docs/decisions.md "The offline outbox").
  const needsNetwork = useUploadNeedsNetwork();

  useEffect(() => {
    const element = input.current;
    if (!element) return;
    // Closing the file picker without a choice says 'No files selected.' (docs/product.md "Uploads").
    const onCancel = () => void upload(owner, [], { canEdit, folder });
    element.addEventListener('cancel', onCancel);
    return () => element.removeEventListener('cancel', onCancel);
  }, [upload, owner, canEdit, folder]);

  return (
    <>
      <button
        type="button"
        className="button primary"
        data-upload-button
        {...needsNetwork()}
        onClick={() => {
          if (holding) void sendHeld(owner, { canEdit, folder });
          else input.current?.click();
        }}
      >
        Upload
      </button>
      <input
        ref={input}
        className="visually-hidden"
        type="file"
        accept="image/*"
        multiple
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          event.target.value = '';
          void upload(owner, files, { canEdit, folder });
        }}
      />
    </>
  );
}

/** The upload status line; announced politely as it changes. */
export function UploadStatus({ ownerId }: { ownerId: string }) {
  const text = useGallery((state) => state.uploadStatus[ownerId]);
  return (
    <p className="upload-status" role="status">
      {text ?? ''}
    </p>
  );
}
