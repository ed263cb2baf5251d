import { type RefObject, useEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { DEFAULT_FOLDER } from '../../contracts/constants.ts';
import type { GalleryOwnerRef } from './api.ts';
import { FolderSelect } from './FolderSelect.tsx';
import { GalleryModal } from './GalleryModal.tsx';
import { PhotoTile } from './PhotoTile.tsx';
import { UploadButton, UploadStatus } from './UploadButton.tsx';
import { UploadFailures, UploadTile, WaitingUploadsNote, isFailed } from './UploadTile.tsx';
import { useWaitingUploads } from './waitingUploads.ts';
import { hasMore, pagesOf, readFolder, totalOf, useGallery } from './store.ts';
import './manager.css';

/**
 * Thumbnails are rendered a page at a time, so a gallery of thousands stays light; past the pages
 * loaded, the next one is read from the server (docs/decisions.md "A paged gallery").
 */
export const MANAGER_PAGE = 60;

const NO_IMAGES: never[] = [];

interface GalleryManagerProps {
  owner: GalleryOwnerRef;
  canEdit: boolean;
  onOpen: (imageId: string) => void;
  onClose: () => void;
  /** The `View All` button, where focus goes back once the manager closes. */
  returnFocus?: RefObject<HTMLElement | null> | undefined;
}

/** 'View All': every image of a folder in a modal (docs/product.md "Gallery manager"). */
export function GalleryManager({
  owner,
  canEdit,
  onOpen,
  onClose,
  returnFocus,
}: GalleryManagerProps) {
  const gallery = useGallery((state) => state.galleries[owner.id]);
  const folder = useGallery((state) => state.selectedFolder[owner.id] ?? DEFAULT_FOLDER);
  const tiles = useGallery(
    useShallow((state) => state.uploads.filter((item) => item.ownerId === owner.id)),
  );
  // Files kept offline show too, also after a reload (docs/decisions.md "The offline outbox").
  const waiting = useWaitingUploads(owner.id, tiles);
  const uploads = useMemo(
    () => (waiting.length === 0 ? tiles : [...waiting, ...tiles]),
    [waiting, tiles],
  );
  const { load, loadMore, loadFolders, selectFolder, addFolder } = useGallery(
    useShallow((state) => ({
      load: state.load,
      loadMore: state.loadMore,
      loadFolders: state.loadFolders,
      selectFolder: state.selectFolder,
      addFolder: state.addFolder,
    })),
  );
  const list = pagesOf(gallery, folder);
  const folderRead = Boolean(list);
  useEffect(() => {
    if (!folderRead) readFolder(owner, folder);
  }, [owner, folder, folderRead]);
  const images = list?.items ?? NO_IMAGES;
  const total = totalOf(list);
  const [page, setPage] = useState({ folder, count: MANAGER_PAGE });
  const count = page.folder === folder ? page.count : MANAGER_PAGE;
  const shown = images.slice(0, count);
  const unread = hasMore(list);
  const failed = list?.more === 'error';
  const reading = list?.more === 'loading';
  // Shows the next rendered page, reading it from the server first when it is not loaded yet.
  const loaded = images.length;
  const more = () => {
    setPage({ folder, count: count + MANAGER_PAGE });
    if (count + MANAGER_PAGE > loaded) void loadMore(owner, folder);
  };

  const scroller = useRef<HTMLDivElement>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  const canShowMore = shown.length < images.length || unread;
  // Near the end the next page comes on its own; after a failed page only the button asks again,
  // so an offline member is not sent the same failing request over and over.
  const automatic = canShowMore && !failed && !reading;
  useEffect(() => {
    const target = sentinel.current;
    if (!automatic || !target || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        setPage({ folder, count: count + MANAGER_PAGE });
        if (count + MANAGER_PAGE > loaded) void loadMore(owner, folder);
      },
      { root: scroller.current, rootMargin: '600px 0px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [automatic, folder, count, loaded, owner, loadMore]);

  const loading = !list || list.status === 'loading';
  return (
    <GalleryModal
      className="gallery-manager"
      label={`Photos of @${owner.username}`}
      onClose={onClose}
      returnFocus={returnFocus}
    >
      <div className="manager-frame">
        <header className="manager-head">
          <h2>Photos of @{owner.username}</h2>
          <div className="manager-tools">
            <FolderSelect
              label="Folder"
              value={folder}
              folders={gallery?.folders ?? [DEFAULT_FOLDER]}
              onChange={(next) => selectFolder(owner.id, next)}
              {...(canEdit ? { onCreate: (name: string) => addFolder(owner.id, name) } : {})}
            />
            {canEdit && <UploadButton owner={owner} folder={folder} canEdit={canEdit} />}
            <button
              type="button"
              className="button"
              onClick={() => {
                void load(owner);
                if (folder !== DEFAULT_FOLDER) void load(owner, folder);
                void loadFolders(owner);
              }}
            >
              Refresh
            </button>
            <button type="button" className="button" onClick={onClose}>
              Close
            </button>
          </div>
        </header>
        <UploadStatus ownerId={owner.id} />
        <WaitingUploadsNote uploads={uploads} />
        <div className="manager-body" ref={scroller}>
          <UploadFailures uploads={uploads} />
          {loading ? (
            <p className="gallery-empty" role="status">
              Loading…
            </p>
          ) : list.status === 'error' && images.length === 0 ? (
            <p className="gallery-empty" role="alert">
              Could not load photos.{' '}
              <button
                type="button"
                className="link-button"
                onClick={() => void load(owner, folder)}
              >
                Try again
              </button>
            </p>
          ) : images.length === 0 && uploads.length === 0 ? (
            <p className="gallery-empty">No images in this folder.</p>
          ) : (
            <ul className="manager-grid" aria-label={`Images in '${folder}'`}>
              {uploads
                .filter((upload) => !isFailed(upload))
                .map((upload) => (
                  <UploadTile key={upload.key} upload={upload} />
                ))}
              {shown.map((image, index) => (
                <PhotoTile
                  key={image.id}
                  image={image}
                  place={{ n: index + 1, of: Math.max(total, images.length) }}
                  onOpen={onOpen}
                  lazy
                />
              ))}
            </ul>
          )}
          {!loading && canShowMore && (
            <div ref={sentinel} className="manager-more">
              {failed && <span role="alert">Could not load more photos.</span>}
              <button
                type="button"
                className="button"
                aria-disabled={reading}
                onClick={() => {
                  if (!reading) more();
                }}
              >
                {failed ? 'Try again' : reading ? 'Loading…' : 'Show more'}
              </button>
            </div>
          )}
        </div>
        <footer className="manager-foot">
          <span>Images in &apos;{folder}&apos;</span>
          <span>
            Showing {shown.length} / {Math.max(total, shown.length)}
          </span>
        </footer>
      </div>
    </GalleryModal>
  );
}
