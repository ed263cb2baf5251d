import { useState } from 'react';
import { DEFAULT_QUOTE } from '../../contracts/constants.ts';
import { displayText } from '../../contracts/validation.ts';
import { Avatar } from '../../components/Avatar.tsx';
import type { CurrentUser } from '../../contracts/readers/user.ts';
import { FriendButtons } from '../friends/FriendButtons.tsx';
import { MemberMenu } from '../safety/MemberMenu.tsx';
import { type ProfileCounts, formatCounts } from './counters.ts';
import { QuoteEditor } from './QuoteEditor.tsx';
import { ShareButton } from './ShareButton.tsx';

interface ProfileHeaderProps {
  user: CurrentUser;
  isOwner: boolean;
  counts: ProfileCounts;
}

/**
 * The profile header (docs/product.md "Profile"). The name and quote are shown without hidden
 * characters, whatever server or saved copy they came from (docs/decisions.md "Display text
 * without hidden characters").
 */
export function ProfileHeader({ user, isOwner, counts }: ProfileHeaderProps) {
  const [editing, setEditing] = useState(false);
  const quote = displayText(user.favoriteQuote) || DEFAULT_QUOTE;
  const fullName = displayText(user.fullName);
  return (
    <section
      className={`profile-card profile-header${isOwner ? '' : ' with-menu'}`}
      aria-labelledby="profile-username"
    >
      <div className="profile-identity">
        <Avatar src={user.profileImage} username={user.username} size={128} priority />
        <div className="profile-names">
          <h1 className="profile-username" id="profile-username">
            @{user.username}
          </h1>
          {fullName && <p className="profile-fullname">{fullName}</p>}
          <p className="profile-counts">{formatCounts(counts)}</p>
        </div>
      </div>
      {!isOwner && <MemberMenu member={user} />}
      <blockquote className="profile-quote">{quote}</blockquote>
      {isOwner && (
        <div className="profile-quote-tools">
          <button
            type="button"
            className="button ghost"
            aria-expanded={editing}
            onClick={() => setEditing((open) => !open)}
          >
            {editing ? 'Close Editor' : 'Edit Profile'}
          </button>
          {editing && (
            <QuoteEditor
              quote={user.favoriteQuote || DEFAULT_QUOTE}
              onDone={() => setEditing(false)}
            />
          )}
        </div>
      )}
      <dl className="profile-highlights">
        <div>
          <dt>Featured In:</dt>
          <dd>N/A</dd>
        </div>
        <div>
          <dt>Achievements:</dt>
          <dd>N/A</dd>
        </div>
      </dl>
      <div className="profile-actions">
        {!isOwner && <FriendButtons userId={user.id} username={user.username} />}
        <button type="button" className="button" disabled title="Coming soon">
          Message
        </button>
        <ShareButton username={user.username} />
      </div>
    </section>
  );
}
