import type { ButtonHTMLAttributes } from 'react';
import { Icon } from '../../components/Icon.tsx';
import type { GalleryImage } from '../../contracts/gallery.ts';
import { GalleryPicture, type Place } from './GalleryPicture.tsx';

interface PhotoTileProps {
  image: GalleryImage;
  /** Where it stands in the grid's list (the folder's whole count): part of its name. */
  place: Place;
  onOpen: (imageId: string) => void;
  lazy?: boolean;
  /** The owner's reorder handle, when the grid can be reordered. */
  handle?: ButtonHTMLAttributes<HTMLButtonElement> & {
    'data-reorder-handle': string;
    label: string;
    describedBy: string;
  };
  dragging?: boolean;
}

/** One thumbnail; the button opens the viewer and is named by the image's alt text. */
export function PhotoTile({
  image,
  place,
  onOpen,
  lazy = false,
  handle,
  dragging = false,
}: PhotoTileProps) {
  return (
    <li className={`photo-tile${dragging ? ' dragging' : ''}`} data-reorder-id={image.id}>
      <button type="button" className="photo-open" onClick={() => onOpen(image.id)}>
        <GalleryPicture image={image} place={place} thumbnail lazy={lazy} />
      </button>
      {handle && <ReorderHandle {...handle} />}
    </li>
  );
}

function ReorderHandle({ label, describedBy, ...props }: NonNullable<PhotoTileProps['handle']>) {
  return (
    <button
      type="button"
      className="photo-handle"
      aria-label={label}
      aria-describedby={describedBy}
      {...props}
    >
      <Icon
        size={18}
        path="M9 5a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0Zm0 7a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0Zm-1.5 8.5a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3ZM18 5a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0Zm-1.5 8.5a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3ZM18 19a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0Z"
      />
    </button>
  );
}
