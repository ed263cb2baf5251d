import { useState } from 'react';
import { DEFAULT_AVATAR } from '../contracts/constants.ts';
import { avatarUrl, initialAvatar } from './avatarUrl.ts';
import './Avatar.css';

interface AvatarProps {
  src: string;
  username: string;
  size?: number;
  /** Decorative when a name is shown beside it. */
  decorative?: boolean;
  /** The page's largest picture (a profile's header): fetched before everything else. */
  priority?: boolean;
}

/** The member's picture, then the default picture, then a generated initial. */
export function Avatar({
  src,
  username,
  size = 40,
  decorative = false,
  priority = false,
}: AvatarProps) {
  const [fallback, setFallback] = useState(0);
  const [failedFor, setFailedFor] = useState(src);
  if (failedFor !== src) {
    setFailedFor(src);
    setFallback(0);
  }
  const chain = [avatarUrl(src), DEFAULT_AVATAR, initialAvatar(username)];
  const current = chain[Math.min(fallback, chain.length - 1)];
  return (
    <img
      className="avatar"
      src={current}
      width={size}
      height={size}
      alt={decorative ? '' : `@${username || 'Guest'}`}
      {...(priority ? { fetchPriority: 'high' as const } : {})}
      onError={() => setFallback((step) => Math.min(step + 1, chain.length - 1))}
    />
  );
}

/** A picture the member has just chosen, shown in the same round frame before it is uploaded. */
export function AvatarPreview({ src, alt, size }: { src: string; alt: string; size: number }) {
  return <img className="avatar" src={src} alt={alt} width={size} height={size} />;
}
