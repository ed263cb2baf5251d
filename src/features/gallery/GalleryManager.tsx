import { useEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { DEFAULT_FOLDER } from '../../contracts/constants.ts';
import type { GalleryOwnerRef } from './api.ts';
import { FolderSelect } from './FolderSelect.tsx';
import { GalleryModal } from './GalleryModal.tsx';
import { PhotoTile } from './PhotoTile.tsx';
import { UploadButton, UploadStatus } from './UploadButton.tsx';
import { UploadTile } from './UploadTile.tsx';
import { inFolder } from './images.ts';
import { useGallery } from './store.ts';
import './manager.css';

/** Thumbnails are rendered a page at a time, so a gallery of thousands stays light. */
export const MANAGER_PAGE = 60;

interface GalleryManagerProps {
  owner: GalleryOwnerRef;
  canEdit: boolean;
  onOpen: (imageId: string) => void;
  onClose: () => void;
}

/** 'View All': every image of a folder in a modal (docs/product.md "Gallery manager"). */
export function GalleryManager({ owner, canEdit, onOpen, onClose }: GalleryManagerProps) {
  const gallery = useGallery((state) => state.galleries[owner.id]);
  const folder = useGallery((state) => state.selectedFolder[owner.id] ?? DEFAULT_FOLDER);
  const uploads = useGallery(
    useShallow((state) => state.uploads.filter((item) => item.ownerId === owner.id)),
  );
  const { load, loadFolders, selectFolder, addFolder } = useGallery(
    useShallow(({ load, loadFolders, selectFolder, addFolder }) => ({
      load,
      loadFolders,
      selectFolder,
      addFolder,
    })),
  );
  const all = gallery?.images;
  const images = useMemo(() => inFolder(all ?? [], folder), [all, folder]);
  const [page, setPage] = useState({ folder, count: MANAGER_PAGE });
  const count = page.folder === folder ? page.count : MANAGER_PAGE;
  const shown = images.slice(0, count);
  const more = () => setPage({ folder, count: count + MANAGER_PAGE });

  const scroller = useRef<HTMLDivElement>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  const hasMore = shown.length < images.length;
  useEffect(() => {
    const target = sentinel.current;
    if (!hasMore || !target || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting))
          setPage({ folder, count: count + MANAGER_PAGE });
      },
      { root: scroller.current, rootMargin: '600px 0px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [hasMore, folder, count]);

  const loading = !gallery || gallery.status === 'loading';
  return (
    <GalleryModal
      className="gallery-manager"
      label={`Photos of @${owner.username}`}
      onClose={onClose}
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
        <div className="manager-body" ref={scroller}>
          {loading ? (
            <p className="gallery-empty" role="status">
              Loading…
            </p>
          ) : images.length === 0 && uploads.length === 0 ? (
            <p className="gallery-empty">No images in this folder.</p>
          ) : (
            <ul className="manager-grid" aria-label={`Images in '${folder}'`}>
              {uploads.map((upload) => (
                <UploadTile key={upload.key} upload={upload} />
              ))}
              {shown.map((image) => (
                <PhotoTile key={image.id} image={image} onOpen={onOpen} lazy />
              ))}
            </ul>
          )}
          {hasMore && (
            <div ref={sentinel} className="manager-more">
              <button type="button" className="button" onClick={more}>
                Show more
              </button>
            </div>
          )}
        </div>
        <footer className="manager-foot">
          <span>Images in &apos;{folder}&apos;</span>
          <span>
            Showing {shown.length} / {images.length}
          </span>
        </footer>
      </div>
    </GalleryModal>
  );
}
