/**
 * Uploads waiting in the member's offline outbox (docs/decisions.md "The offline outbox"), as
 * tiles: each upload the service worker keeps is read back from its form (the file, the gallery
 * and the folder), so the files stay shown as `Waiting to send` after a reload or on another visit
 * to the profile, until the outbox has sent them, the server refused them or they were discarded.
 */
import { useMemo } from 'react';
import { create } from 'zustand';
import { galleryUpload } from '../../contracts/endpoints/gallery.ts';
import { pathOf } from '../../lib/api.ts';
import type { OutboxItem } from '../../lib/outboxQueue.ts';
import { joinMemberState } from '../../lib/memberState.ts';
import { useOutboxItems } from '../offline/outbox.ts';
import type { PendingUpload } from './uploadSlice.ts';

interface WaitingForms {
  /** Each waiting upload by its Idempotency-Key, oldest first; null while its form is read. */
  byKey: Record<string, PendingUpload | null>;
}

const useWaitingForms = create<WaitingForms>()(() => ({ byKey: {} }));

const uploadPath = pathOf(galleryUpload);
const isUpload = (item: OutboxItem) =>
  item.method === galleryUpload.method && item.path === uploadPath && Boolean(item.form);

const text = (value: FormDataEntryValue | null): string => (typeof value === 'string' ? value : '');

/** An upload's tile from the form the worker keeps; null when it holds no file. */
export function tileOfForm(key: string, form: FormData): PendingUpload | null {
  const image = form.get('image');
  if (!(image instanceof File)) return null;
  const file = image;
  const fields: Record<string, string> = {};
  for (const [name, value] of form.entries()) if (typeof value === 'string') fields[name] = value;
  const ownerId = text(form.get('userId'));
  return {
    key: `outbox-${key}`,
    sendKey: key,
    ownerId,
    name: file.name,
    loaded: file.size,
    total: file.size,
    preview: file,
    phase: 'queued',
    listed: true,
    file,
    owner: { id: ownerId, username: text(form.get('username')) },
    fields,
    checked: true,
  };
}

/** Follows the outbox's list: reads the form of each new upload in it, forgets those gone. */
function follow(items: readonly OutboxItem[]): void {
  const known = useWaitingForms.getState().byKey;
  const byKey: Record<string, PendingUpload | null> = {};
  const toRead: OutboxItem[] = [];
  for (const item of items.filter(isUpload)) {
    if (item.key in known) byKey[item.key] = known[item.key] ?? null;
    else {
      byKey[item.key] = null;
      toRead.push(item);
    }
  }
  useWaitingForms.setState({ byKey });
  for (const item of toRead) {
    void (item.form?.() ?? Promise.reject(new Error('No form')))
      .then((form) => tileOfForm(item.key, form))
      .catch(() => null)
      .then((tile) => {
        // Only while the upload still waits: one sent or discarded meanwhile stays gone.
        useWaitingForms.setState((state) =>
          item.key in state.byKey ? { byKey: { ...state.byKey, [item.key]: tile } } : state,
        );
      });
  }
}

follow(useOutboxItems.getState().items);
useOutboxItems.subscribe((state, previous) => {
  if (state.items !== previous.items) follow(state.items);
});

joinMemberState('waiting-uploads', {
  reset: () => {
    useWaitingForms.setState({ byKey: {} });
  },
});

const NONE: PendingUpload[] = [];

/**
 * The gallery's uploads waiting in the outbox, oldest first, but for those still on a tile of
 * this page (`tiles`), which show there.
 */
export function useWaitingUploads(
  ownerId: string,
  tiles: readonly PendingUpload[],
): PendingUpload[] {
  const byKey = useWaitingForms((state) => state.byKey);
  return useMemo(() => {
    const onTiles = new Set(tiles.map((tile) => tile.sendKey));
    const waiting = Object.values(byKey).filter(
      (upload): upload is PendingUpload =>
        upload !== null && upload.ownerId === ownerId && !onTiles.has(upload.sendKey),
    );
    return waiting.length === 0 ? NONE : waiting;
  }, [byKey, tiles, ownerId]);
}
