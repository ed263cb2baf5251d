import { useId } from 'react';
import { Link } from 'react-router-dom';
import { Avatar } from '../../components/Avatar.tsx';
import type { OwnerFriends } from './useOwnerFriends.ts';

/** The Friends section: the owner's friends with a link to each profile (docs/product.md "Profile"). */
export function ProfileFriends({ friends }: { friends: OwnerFriends }) {
  const headingId = useId();
  let content: React.ReactNode;
  if (friends.status === 'loading') {
    content = <p role="status">Loading…</p>;
  } else if (friends.status === 'error' && friends.items.length === 0) {
    content = <p role="alert">Could not load friends.</p>;
  } else if (friends.items.length === 0) {
    content = <p className="profile-muted">No friends yet.</p>;
  } else {
    content = (
      <ul className="profile-friends-list">
        {friends.items.map((item) => {
          const friend = item.user;
          return (
            <li key={friend.id}>
              <Link
                className="profile-friend"
                to={`/profile/${encodeURIComponent(friend.username)}`}
              >
                <Avatar src={friend.profileImage} username={friend.username} size={48} decorative />
                <span>@{friend.username}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    );
  }
  return (
    <section className="profile-card profile-friends" aria-labelledby={headingId}>
      <h2 id={headingId}>Friends</h2>
      {content}
    </section>
  );
}
