import { useId } from 'react';
import type { GalleryImage } from '../../contracts/gallery.ts';
import { useNeedsNetwork } from '../offline/store.ts';
import { PhotoTile } from './PhotoTile.tsx';
import { UploadFailures, UploadTile, isFailed } from './UploadTile.tsx';
import { useColumns } from './useColumns.ts';
import { useReorder } from './useReorder.ts';
import type { PendingUpload } from './uploadSlice.ts';

interface PhotoGridProps {
  images: readonly GalleryImage[];
  /** How many images the list holds on the server, loaded or not. */
  total: number;
  uploads: readonly PendingUpload[];
  canReorder: boolean;
  onOpen: (imageId: string) => void;
  onReorder: (order: string[]) => void;
}

/**
 * The profile's grid: at most two rows of photos in the gallery's order, after the files being
 * uploaded. Every upload tile is shown, even past two rows, so none that is waiting is out of
 * reach; the photos fill what is left of the two rows. Failed files are listed above the grid.
 */
export function PhotoGrid({
  images,
  total,
  uploads,
  canReorder,
  onOpen,
  onReorder,
}: PhotoGridProps) {
  const columns = useColumns();
  const limit = columns * 2;
  const going = uploads.filter((upload) => !isFailed(upload));
  const shownImages = images.slice(0, Math.max(0, limit - going.length));
  const reorder = useReorder(
    shownImages.map((image) => image.id),
    columns,
    onReorder,
  );
  const instructionsId = useId();
  // Offline, the handles stay in place, disabled, described by the reason.
  const needsNetwork = useNeedsNetwork();
  const byId = new Map(shownImages.map((image) => [image.id, image]));
  const ordered = reorder.order.map((id) => byId.get(id)).filter((image) => image !== undefined);

  return (
    <>
      <UploadFailures uploads={uploads} />
      <ul
        className="photo-grid"
        style={{ '--columns': columns } as React.CSSProperties}
        aria-label="Photos"
      >
        {going.map((upload) => (
          <UploadTile key={upload.key} upload={upload} />
        ))}
        {ordered.map((image, index) => (
          <PhotoTile
            key={image.id}
            image={image}
            place={{ n: index + 1, of: Math.max(total, images.length) }}
            onOpen={onOpen}
            dragging={reorder.dragging === image.id}
            {...(canReorder
              ? {
                  handle: {
                    ...reorder.handleProps(image.id),
                    ...needsNetwork(),
                    label: `Reorder photo ${index + 1} of ${ordered.length}`,
                    describedBy: instructionsId,
                  },
                }
              : {})}
          />
        ))}
      </ul>
      {canReorder && (
        <>
          <p id={instructionsId} className="visually-hidden">
            Drag the handle onto another photo, or press Space to pick the photo up, the arrow keys
            to move it, Space or Enter to drop it and Escape to cancel.
          </p>
          <p className="visually-hidden" aria-live="assertive">
            {reorder.announcement}
          </p>
        </>
      )}
    </>
  );
}
