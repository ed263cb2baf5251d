import { countOf } from '../../lib/words.ts';

export interface ProfileCounts {
  friends: number;
  posts: number;
  likes: number;
}

/**
 * The header counters (docs/decisions.md "Real profile counters"): friends listed, photos posted
 * and likes those photos received. The server's counts are used when it sent them (a gallery's
 * first page says how many photos there are; the folder list, how many likes), so they never wait
 * for every page; else the images given are counted.
 */
export function profileCounts(
  friends: readonly unknown[],
  images: readonly { likes?: unknown; likeCount?: unknown }[],
  server: { photos?: number | undefined; likes?: number | undefined } = {},
): ProfileCounts {
  const likes = images.reduce(
    (sum, image) =>
      sum +
      (typeof image.likeCount === 'number'
        ? image.likeCount
        : Array.isArray(image.likes)
          ? image.likes.length
          : 0),
    0,
  );
  return {
    friends: friends.length,
    posts: Math.max(server.photos ?? 0, images.length),
    likes: server.likes ?? likes,
  };
}

export function formatCounts({ friends, posts, likes }: ProfileCounts): string {
  return [
    countOf(friends, 'Friend', 'Friends'),
    countOf(posts, 'Post', 'Posts'),
    countOf(likes, 'Like', 'Likes'),
  ].join(' • ');
}
