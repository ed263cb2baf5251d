import { useId } from 'react';
import { Link } from 'react-router-dom';
import { DEFAULT_FOLDER } from '../../contracts/constants.ts';
import type { GalleryImage } from '../../contracts/gallery.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { galleryPatch } from '../../contracts/paths/gallery.ts';
import { useNeedsNetwork } from '../offline/store.ts';
import { WaitingMark } from '../offline/WaitingMark.tsx';
import { CaptionEditor, type CaptionMode } from './CaptionEditor.tsx';
import { FolderSelect } from './FolderSelect.tsx';
import { type Reaction, reactionCount } from './images.ts';
import { useCaptionWaiting, useReactionWaiting } from './waiting.ts';

interface ViewerMetaProps {
  image: GalleryImage;
  meId: string;
  online: boolean | undefined;
  canEdit: boolean;
  folders: readonly string[];
  captionMode: CaptionMode;
  onCaptionMode: (mode: CaptionMode) => void;
  onSaveCaption: (caption: string) => Promise<void>;
  onReact: (kind: Reaction) => void;
  onMove: (folder: string) => void;
}

const REACTIONS: readonly { kind: Reaction; label: string; down: boolean }[] = [
  { kind: 'likes', label: 'Like', down: false },
  { kind: 'dislikes', label: 'Dislike', down: true },
];

const DATE = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : DATE.format(date);
}

/** The viewer's left panel: owner and presence, caption, date, folder, likes and dislikes. */
export function ViewerMeta(props: ViewerMetaProps) {
  const { image, meId, online, canEdit } = props;
  const { owner } = image;
  const date = formatDate(image.createdAt);
  const needsNetwork = useNeedsNetwork();
  const reactionWaiting = useReactionWaiting(image.id);
  const captionWaiting = useCaptionWaiting(image.id);
  const waitingId = useId();
  return (
    <aside className="viewer-meta" aria-label="Image details">
      <div className="viewer-owner">
        <Avatar src={owner.profileImage} username={owner.username} size={44} decorative />
        <div>
          <Link to={`/profile/${encodeURIComponent(owner.username)}`} className="viewer-owner-name">
            @{owner.username}
          </Link>
          {online !== undefined && (
            <span className={`presence ${online ? 'online' : 'offline'}`}>
              <span aria-hidden="true" className="presence-dot" />
              {online ? 'Online' : 'Offline'}
            </span>
          )}
        </div>
      </div>
      <CaptionEditor
        key={image.id}
        caption={image.caption}
        mode={props.captionMode}
        onModeChange={props.onCaptionMode}
        onSave={props.onSaveCaption}
        waiting={captionWaiting}
      />
      {date && (
        <p className="viewer-date">
          <time dateTime={image.createdAt}>{date}</time>
        </p>
      )}
      {canEdit ? (
        <FolderSelect
          label="Folder"
          value={image.folder || DEFAULT_FOLDER}
          folders={props.folders}
          onChange={props.onMove}
          onCreate={props.onMove}
          disabled={needsNetwork().disabled}
        />
      ) : (
        <p className="viewer-folder">Folder: {image.folder || DEFAULT_FOLDER}</p>
      )}
      <div className="viewer-reactions">
        {REACTIONS.map(({ kind, label, down }) => (
          <button
            key={kind}
            type="button"
            className="reaction"
            aria-pressed={image[kind].includes(meId)}
            {...needsNetwork(!meId, galleryPatch)}
            {...(reactionWaiting ? { 'aria-describedby': waitingId } : {})}
            onClick={() => props.onReact(kind)}
          >
            <ThumbIcon down={down} /> {label}{' '}
            <span className="reaction-count">{reactionCount(image, kind)}</span>
          </button>
        ))}
        {reactionWaiting && <WaitingMark id={waitingId} />}
      </div>
    </aside>
  );
}

/** Drawn, not an emoji: emoji fonts are missing on many systems. */
function ThumbIcon({ down = false }: { down?: boolean }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      width="18"
      height="18"
      style={down ? { transform: 'rotate(180deg)' } : undefined}
    >
      <path
        fill="currentColor"
        d="M2 21h4V9H2v12Zm20-11a2 2 0 0 0-2-2h-6.3l.95-4.57.03-.32a1.5 1.5 0 0 0-.44-1.06L13.17 1 6.59 7.59A2 2 0 0 0 6 9v10a2 2 0 0 0 2 2h9a2 2 0 0 0 1.84-1.21l3.02-7.05c.09-.23.14-.47.14-.74v-2Z"
      />
    </svg>
  );
}
