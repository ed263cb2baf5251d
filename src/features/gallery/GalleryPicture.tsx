import { useMemo, useState } from 'react';
import type { GalleryImage } from '../../contracts/gallery.ts';
import { imageSources } from './sources.ts';

/** What an image says to someone who cannot see it: its caption, else whose photo it is. */
export function altText(image: GalleryImage): string {
  if (image.caption.trim()) return image.caption.trim();
  return image.owner.username ? `Photo by @${image.owner.username}` : 'Photo';
}

interface GalleryPictureProps {
  image: GalleryImage;
  /** The small grid version first; the display size otherwise. */
  thumbnail?: boolean;
  alt?: string;
  className?: string;
  lazy?: boolean;
}

/** An image that walks down its fallback chain (docs/product.md "Errors") when an address fails to load. */
export function GalleryPicture({
  image,
  thumbnail = false,
  alt,
  className,
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
      src={chain[Math.min(step, chain.length - 1)]}
      alt={alt ?? altText(image)}
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
