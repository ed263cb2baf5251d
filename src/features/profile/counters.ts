export interface ProfileCounts {
  friends: number;
  posts: number;
  likes: number;
}

/** The header counters (DECISIONS "Profile page"): friends listed, photos posted and likes those photos received. */
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

/** A count with its word agreeing in number (DECISIONS "Turn 2"): `1 Friend`, `0 Friends`, `2 Friends`. */
export function countOf(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

export function formatCounts({ friends, posts, likes }: ProfileCounts): string {
  return [
    countOf(friends, 'Friend', 'Friends'),
    countOf(posts, 'Post', 'Posts'),
    countOf(likes, 'Like', 'Likes'),
  ].join(' • ');
}
