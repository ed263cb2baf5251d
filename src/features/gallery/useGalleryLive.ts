/**
 * Live gallery updates while a gallery is on screen (docs/product.md "Realtime"): the socket's
 * events patch the store; reorders, which no event carries, come from this browser's other tabs
 * (docs/architecture.md "Client state").
 */
import { useEffect } from 'react';
import { Ack } from '../../contracts/realtime.ts';
import { currentSocket, onSocketConnect, onSocketEvent } from '../../lib/socket.ts';
import { connectGalleryAcrossTabs } from './channel.ts';
import { receiveGalleryChange, receiveLiveImage, useGallery } from './store.ts';

const learnOnline = (ownerId: string) => (raw: Ack | undefined) => {
  const ack = Ack.safeParse(raw);
  if (ack.success && ack.data.ok && ack.data.online !== undefined)
    useGallery.getState().setOnline(ownerId, ack.data.online);
};

/** Joins the owner's gallery room (again after every reconnect) and applies what it hears. */
export function useGalleryLive(ownerId: string) {
  useEffect(() => {
    const store = useGallery.getState;
    const stops = [
      onSocketEvent('gallery:image:created', (payload) => receiveLiveImage(payload, true)),
      onSocketEvent('gallery:image:updated', (payload) => receiveLiveImage(payload, false)),
      onSocketEvent('gallery:image:deleted', (payload) =>
        store().receiveDeleted(payload.ownerId, payload.id),
      ),
      onSocketEvent('presence:update', (payload) =>
        store().setOnline(payload.userId, payload.online),
      ),
      onSocketConnect((socket) => socket.emit('gallery:join', { ownerId }, learnOnline(ownerId))),
      connectGalleryAcrossTabs(receiveGalleryChange),
    ];
    return () => {
      for (const stop of stops) stop();
      currentSocket()?.emit('gallery:leave', { ownerId });
    };
  }, [ownerId]);
}

/** The viewer also watches its one image's room, which answers whether the owner is online. */
export function useImageRoom(imageId: string, ownerId: string) {
  useEffect(() => {
    if (!imageId) return;
    const stop = onSocketConnect((socket) =>
      socket.emit('image:join', { imageId }, learnOnline(ownerId)),
    );
    return () => {
      stop();
      currentSocket()?.emit('image:leave', { imageId });
    };
  }, [imageId, ownerId]);
}
