import { useEffect, useMemo } from 'react';
import { Navigate, useParams } from 'react-router-dom';
import { Toast } from '../../components/Toast.tsx';
import { useSession } from '../auth/store.ts';
import type { CurrentUser } from '../../contracts/readers/user.ts';
import { useFriends } from '../friends/store.ts';
import { ProfilePhotos } from '../gallery/ProfilePhotos.tsx';
import { totalOf, useGallery } from '../gallery/store.ts';
import { useTheme } from '../theme/store.ts';
import { profileCounts } from './counters.ts';
import { PostBox } from './PostBox.tsx';
import { ProfileFriends } from './ProfileFriends.tsx';
import { ProfileHeader } from './ProfileHeader.tsx';
import { themeForOwner } from './theme.ts';
import { useArrivalToast } from './useArrivalToast.ts';
import { useOwnerFriends } from './useOwnerFriends.ts';
import { useProfile } from './useProfile.ts';
import './ProfilePage.css';

/** `/profile`: the current member's own page. */
export function OwnProfileRedirect() {
  const username = useSession((state) => state.user?.username);
  return (
    <Navigate to={username ? `/profile/${encodeURIComponent(username)}` : '/spacehub'} replace />
  );
}

const NO_IMAGES: never[] = [];

function ProfileContent({
  user,
  isOwner,
  themeWord,
}: {
  user: CurrentUser;
  isOwner: boolean;
  themeWord: unknown;
}) {
  // A friend action here (visitor) or a change of one's own friends (owner) reloads the list.
  const refreshKey = useFriends((state) =>
    isOwner ? `own:${state.counts.friends}` : `with:${state.statuses[user.id]?.status ?? ''}`,
  );
  const friends = useOwnerFriends(user.username, refreshKey);
  // The Photos section loads the owner's first page and counts into the gallery store; the
  // counters read them there.
  const images = useGallery((state) => state.galleries[user.id]?.items ?? NO_IMAGES);
  const photos = useGallery((state) => totalOf(state.galleries[user.id]));
  const likes = useGallery((state) => state.galleries[user.id]?.likes);
  const counts = useMemo(
    () => profileCounts(friends.items, images, { photos, likes }),
    [friends.items, images, photos, likes],
  );
  // On one's own page the palette follows the top-bar toggle at once; the page loaded with the
  // saved word, which the toggle has just replaced on the server as well.
  const ownTheme = useTheme((state) => state.theme);
  const theme = isOwner ? ownTheme : themeForOwner(themeWord);
  const arrival = useArrivalToast();
  return (
    <main className="profile-page" id="main" data-theme={theme}>
      <div className="profile-inner">
        <ProfileHeader user={user} isOwner={isOwner} counts={counts} />
        <PostBox />
        <ProfilePhotos key={user.id} ownerId={user.id} username={user.username} canEdit={isOwner} />
        <ProfileFriends friends={friends} />
      </div>
      <Toast message={arrival} />
    </main>
  );
}

export function ProfilePage() {
  const { username = '' } = useParams();
  const me = useSession((state) => state.user);
  const profile = useProfile(username, me);
  // The gallery answering 404 means the same as the profile doing so: gone, or hidden by a block.
  const ownerId = profile.state === 'found' ? profile.user.id : '';
  const galleryGone = useGallery((state) => state.galleries[ownerId]?.status === 'missing');
  const state = galleryGone ? 'missing' : profile.state;
  // Leaving the page, a gallery found missing is forgotten: the next visit asks again.
  useEffect(() => () => useGallery.getState().forgetMissing(ownerId), [ownerId]);

  if (state === 'loading') {
    return (
      <main className="profile-page" id="main">
        <div className="profile-inner">
          <p role="status">Loading…</p>
        </div>
      </main>
    );
  }
  if (state !== 'found' || profile.state !== 'found') {
    return (
      <main className="profile-page" id="main">
        <section className="profile-missing" role="alert">
          <h1>{state === 'missing' ? 'Member not found' : 'Could not load this profile'}</h1>
          <p>
            {state === 'missing'
              ? `No member is called @${username}.`
              : 'Check your connection and try again.'}
          </p>
        </section>
      </main>
    );
  }
  const { user, themeWord } = profile;
  return <ProfileContent user={user} isOwner={me?.id === user.id} themeWord={themeWord} />;
}
