import { countOf } from '../../lib/words.ts';

export interface ProfileCounts {
  friends: number;
  posts: number;
  likes: number;
}

/** The header counters (docs/decisions.md "Real profile counters"): friends listed, photos posted and likes those photos received. */
export function profileCounts(
  friends: readonly unknown[],
  images: readonly { likes?: unknown }[],
): ProfileCounts {
  const likes = images.reduce(
    (sum, image) => sum + (Array.isArray(image.likes) ? image.likes.length : 0),
    0,
  );
  return { friends: friends.length, posts: images.length, likes };
}

export function formatCounts({ friends, posts, likes }: ProfileCounts): string {
  return [
    countOf(friends, 'Friend', 'Friends'),
    countOf(posts, 'Post', 'Posts'),
    countOf(likes, 'Like', 'Likes'),
  ].join(' • ');
}
