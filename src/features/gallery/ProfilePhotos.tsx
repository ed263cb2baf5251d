import { Suspense, lazy, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useShallow } from 'zustand/react/shallow';
import { DEFAULT_FOLDER } from '../../contracts/constants.ts';
import { Toast } from '../../components/Toast.tsx';
import { whileShown } from '../../lib/serverState.ts';
import { FolderSelect } from './FolderSelect.tsx';
import { PhotoGrid } from './PhotoGrid.tsx';
import { UploadButton, UploadStatus } from './UploadButton.tsx';
import { WaitingUploadsNote } from './UploadTile.tsx';
import { useWaitingUploads } from './waitingUploads.ts';
import { hasMore, pagesOf, readFolder, totalOf, useGallery } from './store.ts';
import { useSharedPhotos } from './shared.ts';
import { useGalleryLive } from './useGalleryLive.ts';
import './gallery.css';

// The viewer and the manager load when they are first opened, not with the profile
// (docs/architecture.md "Code splitting and first paint"); a pointer or focus on what opens them
// starts the download a moment earlier.
const loadManager = () => import('./GalleryManager.tsx');
const loadViewer = () => import('./GalleryViewer.tsx');
const GalleryManager = lazy(() => loadManager().then((m) => ({ default: m.GalleryManager })));
const GalleryViewer = lazy(() => loadViewer().then((m) => ({ default: m.GalleryViewer })));
const prefetchManager = () => void loadManager().catch(() => undefined);
const prefetchViewer = () => void loadViewer().catch(() => undefined);

interface ProfilePhotosProps {
  ownerId: string;
  username: string;
  /** The viewer is the owner (docs/decisions.md "Only the owner edits a gallery"). */
  canEdit: boolean;
}

/** The address's `image` parameter: which image the viewer shows (docs/product.md "Image viewer"). */
function useViewedImage(): [string | null, (imageId: string | null) => void] {
  const [params, setParams] = useSearchParams();
  const show = useCallback(
    (imageId: string | null) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (imageId) next.set('image', imageId);
          else next.delete('image');
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [params.get('image'), show];
}

const NO_IMAGES: never[] = [];

/** The Photos section of a profile (docs/product.md "Gallery"). */
export function ProfilePhotos({ ownerId, username, canEdit }: ProfilePhotosProps) {
  const owner = useMemo(() => ({ id: ownerId, username }), [ownerId, username]);
  const headingId = useId();
  const gallery = useGallery((state) => state.galleries[ownerId]);
  const folder = useGallery((state) => state.selectedFolder[ownerId] ?? DEFAULT_FOLDER);
  const tiles = useGallery(
    useShallow((state) => state.uploads.filter((item) => item.ownerId === ownerId)),
  );
  // Files kept offline show too, also after a reload (docs/decisions.md "The offline outbox").
  const waiting = useWaitingUploads(ownerId, tiles);
  const uploads = useMemo(
    () => (waiting.length === 0 ? tiles : [...waiting, ...tiles]),
    [waiting, tiles],
  );
  const notice = useGallery((state) => state.notice[ownerId] ?? null);
  const { load, loadMore, seek, loadFolders, selectFolder, addFolder, reorder, cancelUploads } =
    useGallery(
      useShallow((state) => ({
        load: state.load,
        loadMore: state.loadMore,
        seek: state.seek,
        loadFolders: state.loadFolders,
        selectFolder: state.selectFolder,
        addFolder: state.addFolder,
        reorder: state.reorder,
        cancelUploads: state.cancelUploads,
      })),
    );
  const [managing, setManaging] = useState(false);
  const viewAll = useRef<HTMLButtonElement>(null);
  const [viewing, view] = useViewedImage();
  useGalleryLive(ownerId);
  const openManager = useCallback(() => setManaging(true), []);
  useSharedPhotos(owner, canEdit, openManager);

  useEffect(() => {
    void load(owner);
    void loadFolders(owner);
    return () => cancelUploads(owner.id);
  }, [owner, load, loadFolders, cancelUploads]);
  // A folder has its own pages, read the first time it is chosen.
  const folderRead = Boolean(pagesOf(gallery, folder));
  useEffect(() => {
    if (folder !== DEFAULT_FOLDER && !folderRead) readFolder(owner, folder);
  }, [owner, folder, folderRead]);
  // Read again whenever what is shown may be stale: at every (re)connect, since an event sent
  // before the gallery's room was joined is never heard, and back online, since what was shown
  // offline came from the saved copies.
  useEffect(
    () =>
      whileShown(
        () => {
          void load(owner);
          if (folder !== DEFAULT_FOLDER) void load(owner, folder);
          void loadFolders(owner);
        },
        { live: true },
      ),
    [owner, folder, load, loadFolders],
  );

  const list = pagesOf(gallery, folder);
  const images = list?.items ?? NO_IMAGES;
  // A shared link may name an image outside the chosen folder: then the viewer pages through all,
  // and through pages not read yet when the image is further on.
  const viewerList = viewing && !images.some((image) => image.id === viewing) ? gallery : list;
  const viewerFolder = viewerList === list ? folder : DEFAULT_FOLDER;
  const linked =
    viewing !== null && (viewerList?.items.some((image) => image.id === viewing) ?? false);
  // The viewer opens on an image loaded here; a link to one further on first reads pages until it
  // is there (the store's seek), and opens without it if it is not, which closes the viewer.
  const ready = gallery?.status === 'ready';
  const [seen, setSeen] = useState<string | null>(null);
  const [sought, setSought] = useState<string | null>(null);
  // Once shown, the viewer stays for this image even if it leaves the list: it moves to a neighbour.
  if (linked && viewing && seen !== viewing) setSeen(viewing);
  useEffect(() => {
    if (!viewing || !ready || linked || seen === viewing || sought === viewing) return;
    let live = true;
    void seek(owner, viewing).finally(() => {
      if (live) setSought(viewing);
    });
    return () => {
      live = false;
    };
  }, [owner, viewing, ready, linked, seen, sought, seek]);
  const viewerShown = linked || seen === viewing || sought === viewing;
  const loadViewerPage = useCallback(
    () => void loadMore(owner, viewerFolder),
    [loadMore, owner, viewerFolder],
  );

  let content: React.ReactNode;
  if (!list || list.status === 'loading') {
    content = (
      <p className="gallery-empty" role="status">
        Loading…
      </p>
    );
  } else if (list.status === 'error' && list.items.length === 0) {
    content = (
      <p className="gallery-empty" role="alert">
        Could not load photos.{' '}
        <button type="button" className="link-button" onClick={() => void load(owner, folder)}>
          Try again
        </button>
      </p>
    );
  } else if (images.length === 0 && uploads.length === 0) {
    const firstTime = canEdit && folder === DEFAULT_FOLDER && totalOf(gallery) === 0;
    content = (
      <p className="gallery-empty">
        {firstTime ? 'No images yet. Upload to get started.' : 'No images to show.'}
      </p>
    );
  } else {
    content = (
      <PhotoGrid
        images={images}
        total={totalOf(list)}
        uploads={uploads}
        canReorder={canEdit}
        onOpen={view}
        onReorder={(order) => void reorder(ownerId, order)}
      />
    );
  }

  return (
    <section className="gallery-section" aria-labelledby={headingId}>
      <header className="gallery-head">
        <h2 id={headingId}>Photos</h2>
        <div className="gallery-tools">
          <FolderSelect
            label="Folder"
            value={folder}
            folders={gallery?.folders ?? [DEFAULT_FOLDER]}
            onChange={(next) => selectFolder(ownerId, next)}
            {...(canEdit ? { onCreate: (name: string) => addFolder(ownerId, name) } : {})}
          />
          {canEdit && <UploadButton owner={owner} folder={folder} canEdit={canEdit} />}
          <button
            ref={viewAll}
            type="button"
            className="button"
            onPointerEnter={prefetchManager}
            onFocus={prefetchManager}
            onClick={() => setManaging(true)}
          >
            View All
          </button>
        </div>
      </header>
      {canEdit && folder !== DEFAULT_FOLDER && (
        <p className="gallery-hint">New uploads go to ‘{folder}’.</p>
      )}
      <UploadStatus ownerId={ownerId} />
      <WaitingUploadsNote uploads={uploads} />
      <div className="contents" onPointerOver={prefetchViewer} onFocus={prefetchViewer}>
        {content}
      </div>
      <Suspense fallback={null}>
        {managing && (
          <GalleryManager
            owner={owner}
            canEdit={canEdit}
            onOpen={view}
            onClose={() => setManaging(false)}
            returnFocus={viewAll}
          />
        )}
        {viewing && ready && viewerList && viewerShown && (
          <GalleryViewer
            ownerId={ownerId}
            images={viewerList.items}
            total={totalOf(viewerList)}
            more={hasMore(viewerList) ? (viewerList.more ?? 'idle') : null}
            onLoadMore={loadViewerPage}
            imageId={viewing}
            canEdit={canEdit}
            onNavigate={view}
          />
        )}
      </Suspense>
      <Toast message={viewing ? null : notice} />
    </section>
  );
}
