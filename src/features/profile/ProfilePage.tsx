import { useEffect, useState } from 'react';
import { Navigate, useParams } from 'react-router-dom';
import { DEFAULT_QUOTE, STORAGE_KEYS } from '../../contracts/constants.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { HttpError } from '../../lib/http.ts';
import { readLocal } from '../../lib/storage.ts';
import { useSession } from '../auth/store.ts';
import { type CurrentUser, normaliseUser } from '../auth/user.ts';
import { FriendButtons } from '../friends/FriendButtons.tsx';
import { ProfilePhotos } from '../gallery/ProfilePhotos.tsx';
import { profileApi } from './api.ts';
import './ProfilePage.css';

type Loaded = { state: 'loading' } | { state: 'found'; user: CurrentUser } | { state: 'missing' } | { state: 'error' };

/** `/profile`: the current member's own page. */
export function OwnProfileRedirect() {
  const username = useSession((state) => state.user?.username);
  return <Navigate to={username ? `/profile/${encodeURIComponent(username)}` : '/spacehub'} replace />;
}

function useProfile(username: string, me: CurrentUser | null): Loaded {
  const isMe = me !== null && me.username.toLowerCase() === username.toLowerCase();
  const [loaded, setLoaded] = useState<{ for: string; value: Loaded }>({ for: '', value: { state: 'loading' } });
  useEffect(() => {
    if (isMe) return;
    const controller = new AbortController();
    profileApi.byUsername(username, controller.signal).then(
      (body) => {
        const user = normaliseUser(body);
        setLoaded({ for: username, value: user ? { state: 'found', user } : { state: 'missing' } });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const missing = error instanceof HttpError && error.status === 404;
        setLoaded({ for: username, value: { state: missing ? 'missing' : 'error' } });
      },
    );
    return () => controller.abort();
  }, [username, isMe]);
  if (isMe) return { state: 'found', user: me };
  return loaded.for === username ? loaded.value : { state: 'loading' };
}

export function ProfilePage() {
  const { username = '' } = useParams();
  const me = useSession((state) => state.user);
  const profile = useProfile(username, me);

  if (profile.state === 'loading') {
    return (
      <main className="profile-page" id="main">
        <p role="status">Loading…</p>
      </main>
    );
  }
  if (profile.state !== 'found') {
    return (
      <main className="profile-page" id="main">
        <section className="profile-missing" role="alert">
          <h1>{profile.state === 'missing' ? 'Member not found' : 'Could not load this profile'}</h1>
          <p>
            {profile.state === 'missing'
              ? `No member is called @${username}.`
              : 'Check your connection and try again.'}
          </p>
        </section>
      </main>
    );
  }
  const { user } = profile;
  const isOwner = me?.id === user.id;
  return (
    <main className="profile-page" id="main">
      <section className="profile-header" aria-label="Profile">
        <Avatar
          src={user.profileImage}
          username={user.username}
          size={128}
          version={isOwner ? readLocal(STORAGE_KEYS.avatarVersion) : null}
        />
        <div>
          <h1 className="profile-username">@{user.username}</h1>
          {user.fullName && <p className="profile-fullname">{user.fullName}</p>}
          <blockquote className="profile-quote">{user.favoriteQuote || DEFAULT_QUOTE}</blockquote>
        </div>
        {!isOwner && <FriendButtons userId={user.id} username={user.username} />}
      </section>
      <ProfilePhotos key={user.id} ownerId={user.id} username={user.username} canEdit={isOwner} />
    </main>
  );
}
