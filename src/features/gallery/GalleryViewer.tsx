import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { DEFAULT_FOLDER } from '../../contracts/constants.ts';
import { LINK_COPIED_MS } from '../../lib/constants.ts';
import type { GalleryImage } from '../../contracts/gallery.ts';
import { ActionMenu, type MenuAction } from '../../components/ActionMenu.tsx';
import { Dialog, DialogActions } from '../../components/Dialog.tsx';
import { Toast } from '../../components/Toast.tsx';
import { useSession } from '../auth/store.ts';
import { galleryPatch } from '../../contracts/paths/gallery.ts';
import { useCanWait, useOfflineNote } from '../offline/store.ts';
import { ReportDialog } from '../safety/ReportDialog.tsx';
import { useReportAction } from '../safety/reported.ts';
import type { CaptionMode } from './CaptionEditor.tsx';
import { GalleryModal } from './GalleryModal.tsx';
import { GalleryPicture } from './GalleryPicture.tsx';
import { ViewerMeta } from './ViewerMeta.tsx';
import { indexAfterDelete } from './images.ts';
import { imageSources } from './sources.ts';
import { useGallery } from './store.ts';
import { useImageRoom } from './useGalleryLive.ts';
import { useViewerGestures } from './useViewerGestures.ts';
import { copyText } from './copyText.ts';
import './viewer.css';

interface GalleryViewerProps {
  ownerId: string;
  /** The images the viewer pages through, in the grid's order: the pages loaded so far. */
  images: readonly GalleryImage[];
  /** How many images the list has in all (the counter's `n`); the loaded ones when absent. */
  total?: number;
  /** Whether more pages are there to read: null when none, else whether one is on its way or failed. */
  more?: 'idle' | 'loading' | 'error' | null;
  /** Reads the next page; moving past the last loaded image asks for it. */
  onLoadMore?: () => void;
  imageId: string;
  canEdit: boolean;
  /** Shows another image, or closes the viewer with null. */
  onNavigate: (imageId: string | null) => void;
}

const EMPTY_FOLDERS = [DEFAULT_FOLDER];

/** The image viewer (docs/product.md "Image viewer"). */
/** How close to the last loaded image the next page is asked for, so moving on rarely waits. */
export const VIEWER_READ_AHEAD = 3;

export function GalleryViewer({
  ownerId,
  images,
  total = images.length,
  more = null,
  onLoadMore,
  imageId,
  canEdit,
  onNavigate,
}: GalleryViewerProps) {
  const index = images.findIndex((image) => image.id === imageId);
  const image = images[index];
  const meId = useSession((state) => state.user?.id ?? '');
  const online = useGallery((state) => (meId === ownerId ? true : state.online[ownerId]));
  const folders = useGallery((state) => state.galleries[ownerId]?.folders ?? EMPTY_FOLDERS);
  const notice = useGallery((state) => state.notice[ownerId] ?? null);
  const offlineNote = useOfflineNote();
  const captionCanWait = useCanWait(galleryPatch);
  const [infoShown, setInfoShown] = useState(true);
  const [caption, setCaption] = useState<{ id: string; mode: CaptionMode }>({
    id: '',
    mode: 'view',
  });
  const [confirming, setConfirming] = useState(false);
  /** The '⋯' button: the delete and report dialogs give focus back to it, in the viewer, where the arrow keys work. */
  const actionsButton = useRef<HTMLButtonElement>(null);
  /** The photo being reported: kept apart from the one shown, which may change meanwhile. */
  const [reporting, setReporting] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const shownId = image?.id ?? '';
  const report = useReportAction('image', shownId, () => setReporting(shownId));
  const frame = useRef<HTMLDivElement>(null);
  const lastIndex = useRef<number | null>(null);
  // A control that goes away under focus (the caption's Save or Cancel) leaves it on <body>, where
  // the arrow keys do nothing: after such a change, bring focus back into the viewer.
  const keepFocus = useRef(false);
  useEffect(() => {
    if (!keepFocus.current) return;
    keepFocus.current = false;
    const active = document.activeElement;
    if (!active || !frame.current?.contains(active)) frame.current?.focus();
  });
  useImageRoom(image?.id ?? '', ownerId);
  // The address changes in a transition: until it has, the viewer is still here after closing,
  // and must not move on to a photo of whatever list it is handed meanwhile.
  const closed = useRef(false);
  const show = (next: string | null) => {
    if (next === null) closed.current = true;
    onNavigate(next);
  };

  // The image left the list (deleted elsewhere, or a link to one that is gone): show a neighbour or close.
  useEffect(() => {
    if (index !== -1) {
      lastIndex.current = index;
      return;
    }
    if (closed.current) return;
    const fallback =
      lastIndex.current === null
        ? undefined
        : images[Math.min(lastIndex.current, images.length - 1)];
    if (!fallback) closed.current = true;
    onNavigate(fallback?.id ?? null);
  }, [index, images, onNavigate]);

  // The next page is read before the member reaches the end of this one. A failed page is asked
  // for again only when the member moves on (offline it would only fail again).
  useEffect(() => {
    if (index !== -1 && more === 'idle' && index >= images.length - 1 - VIEWER_READ_AHEAD)
      onLoadMore?.();
  }, [index, images.length, more, onLoadMore]);

  // Moving past the last loaded image goes on once the next page is there.
  const waitingForNext = useRef(false);
  useEffect(() => {
    if (!waitingForNext.current) return;
    const next = images[index + 1];
    if (next) {
      waitingForNext.current = false;
      onNavigate(next.id);
    } else if (more === null || more === 'error') waitingForNext.current = false;
  }, [images, index, more, onNavigate]);

  // The neighbours are fetched ahead, so paging feels instant.
  useEffect(() => {
    for (const neighbour of [images[index - 1], images[index + 1]]) {
      const url = neighbour && imageSources(neighbour)[0];
      if (url) new Image().src = url;
    }
  }, [images, index]);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), LINK_COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const go = (step: number) => {
    const next = images[index + step];
    if (next) onNavigate(next.id);
    else if (step > 0 && more !== null) {
      waitingForNext.current = true;
      if (more !== 'loading') onLoadMore?.();
    }
  };
  const gestures = useViewerGestures({
    imageId,
    canMove: (step) => (step < 0 ? index > 0 : index < images.length - 1 || more !== null),
    onMove: (step) => go(step),
    onClose: () => show(null),
  });

  if (!image) return null;
  const captionMode = caption.id === image.id ? caption.mode : 'view';
  const hasNext = index < images.length - 1 || more !== null;
  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.defaultPrevented) return;
    if ((event.target as HTMLElement).closest('input, textarea, select, [role="menu"]')) return;
    if (event.key === 'ArrowLeft') go(-1);
    else if (event.key === 'ArrowRight') go(1);
    else return;
    event.preventDefault();
  };
  const confirmDelete = () => {
    setConfirming(false);
    const next = indexAfterDelete(images.length, index);
    const rest = images.filter((item) => item.id !== image.id);
    show(next === null ? null : (rest[next]?.id ?? null));
    void useGallery.getState().remove(ownerId, image.id);
  };
  const shareLink = async () => {
    const url = new URL(
      `/profile/${encodeURIComponent(image.owner.username)}`,
      window.location.origin,
    );
    url.searchParams.set('image', image.id);
    if (await copyText(url.href)) setCopied(true);
  };

  const actions: MenuAction[] = [
    ...(canEdit
      ? [
          {
            label: 'Delete image',
            run: () => setConfirming(true),
            danger: true,
            needsNetwork: true,
          },
          {
            label: 'Edit caption',
            needsNetwork: !captionCanWait,
            run: () => {
              setInfoShown(true);
              setCaption({ id: image.id, mode: 'editing' });
            },
          },
        ]
      : []),
    {
      label: infoShown ? 'Hide info' : 'Show info',
      run: () => {
        setInfoShown((shown) => !shown);
        if (!infoShown) return;
        setCaption({ id: '', mode: 'view' });
      },
    },
    { label: 'Share link', run: () => void shareLink() },
    // Others' photos only: one's own cannot be reported (docs/product.md "Reports").
    ...(meId && meId !== ownerId ? [report] : []),
  ];

  return (
    <>
      <GalleryModal
        className="gallery-viewer"
        label="Image viewer"
        onClose={() => show(null)}
        onKeyDown={onKeyDown}
      >
        <div className="viewer-frame" ref={frame} tabIndex={-1}>
          <div className="viewer-bar">
            <span className="viewer-counter" aria-live="polite">
              {index + 1} / {Math.max(total, images.length)}
            </span>
            <span className="viewer-copied" role="status">
              {copied ? 'Link copied' : ''}
            </span>
            <ActionMenu
              label="Image actions"
              actions={actions}
              offline={offlineNote}
              buttonRef={actionsButton}
            />
            <button
              type="button"
              className="icon-button"
              aria-label="Close"
              onClick={() => show(null)}
            >
              <span aria-hidden="true">✕</span>
            </button>
          </div>
          <div className={`viewer-body${infoShown ? '' : ' no-info'}`}>
            {infoShown && (
              <ViewerMeta
                {...{ image, meId, online, canEdit, folders, captionMode }}
                onCaptionMode={(mode) => {
                  if (mode === 'view') keepFocus.current = true;
                  setCaption({ id: image.id, mode });
                }}
                onSaveCaption={(text) => useGallery.getState().saveCaption(ownerId, image.id, text)}
                onReact={(kind) => void useGallery.getState().react(ownerId, image.id, kind)}
                onMove={(folder) =>
                  void useGallery.getState().moveToFolder(ownerId, image.id, folder)
                }
              />
            )}
            <div
              className={`viewer-stage${gestures.zoomed ? ' zoomed' : ''}`}
              {...gestures.stageProps}
            >
              <GalleryPicture
                key={image.id}
                image={image}
                place={{ n: index + 1, of: Math.max(total, images.length) }}
                className="viewer-image"
                style={gestures.imageStyle}
              />
              {index > 0 && (
                <button
                  type="button"
                  className="viewer-zone prev"
                  aria-label="Previous image"
                  onClick={() => go(-1)}
                >
                  <span aria-hidden="true">‹</span>
                </button>
              )}
              {hasNext && (
                <button
                  type="button"
                  className="viewer-zone next"
                  aria-label="Next image"
                  onClick={() => go(1)}
                >
                  <span aria-hidden="true">›</span>
                </button>
              )}
            </div>
          </div>
          <Toast message={notice} />
        </div>
      </GalleryModal>
      <Dialog
        open={confirming}
        title="Delete image?"
        onClose={() => setConfirming(false)}
        returnFocus={actionsButton}
      >
        <p>This action cannot be undone.</p>
        <DialogActions
          onCancel={() => setConfirming(false)}
          confirm={{ label: 'Delete', danger: true, onClick: confirmDelete }}
        />
      </Dialog>
      <ReportDialog
        open={reporting !== null}
        target={{ kind: 'image', id: reporting ?? image.id }}
        onClose={() => setReporting(null)}
        returnFocus={actionsButton}
      />
    </>
  );
}
