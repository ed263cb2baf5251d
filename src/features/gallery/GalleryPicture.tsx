import { type CSSProperties, useMemo, useState } from 'react';
import type { GalleryImage } from '../../contracts/gallery.ts';
import { imageSources } from './sources.ts';

/** Where an image stands in the list it is shown in: n of N (the list's whole count). */
export interface Place {
  n: number;
  of: number;
}

/**
 * What an image says to someone who cannot see it: its caption, else which photo of the list it
 * is and whose (`Photo 2 of 9 by @vega`), so no two are named alike.
 */
export function altText(image: GalleryImage, place?: Place): string {
  if (image.caption.trim()) return image.caption.trim();
  const which = place ? `Photo ${place.n} of ${Math.max(place.of, place.n)}` : 'Photo';
  return image.owner.username ? `${which} by @${image.owner.username}` : which;
}

interface GalleryPictureProps {
  image: GalleryImage;
  /** The small grid version first; the display size otherwise. */
  thumbnail?: boolean;
  /** Where it stands in its list, for its name. */
  place?: Place;
  className?: string;
  style?: CSSProperties;
  lazy?: boolean;
}

/** An image that walks down its fallback chain (docs/product.md "Errors") when an address fails to load. */
export function GalleryPicture({
  image,
  thumbnail = false,
  place,
  className,
  style,
  lazy = false,
}: GalleryPictureProps) {
  const chain = useMemo(() => imageSources(image, { thumbnail }), [image, thumbnail]);
  const chainKey = chain.join('\n');
  const [attempt, setAttempt] = useState({ for: chainKey, step: 0 });
  if (attempt.for !== chainKey) setAttempt({ for: chainKey, step: 0 });
  const step = attempt.for === chainKey ? attempt.step : 0;
  return (
    <img
      className={className}
      style={style}
      src={chain[Math.min(step, chain.length - 1)]}
      alt={altText(image, place)}
      {...(image.width && image.height ? { width: image.width, height: image.height } : {})}
      {...(lazy ? { loading: 'lazy' as const } : {})}
      decoding="async"
      draggable={false}
      onError={() =>
        setAttempt((current) => ({
          for: chainKey,
          step: Math.min(current.step + 1, chain.length - 1),
        }))
      }
    />
  );
}
