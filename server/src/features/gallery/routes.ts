import fs from 'node:fs/promises';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import * as endpoints from '../../../../src/contracts/endpoints.ts';
import { streamForm } from '../../lib/multipart.ts';
import { route } from '../../lib/route.ts';
import * as gallery from './service.ts';

/** Galleries: member routes (docs/decisions.md "Only the owner edits a gallery"). */
export const galleryRoutes: FastifyPluginCallbackZod = (app, _options, done) => {
  const deps: gallery.GalleryDeps = {
    db: app.db,
    media: app.media,
    incomingDir: app.incomingDir,
    images: app.images,
    events: app.galleryEvents,
    notifications: app.notificationEvents,
  };

  route(app, endpoints.galleryPage, {}, async (request) =>
    gallery.listGallery(
      deps,
      await gallery.ownerFor(deps, request.query, request.member.user),
      request.member.user.id,
      {
        folder: request.query.folder,
        limit: request.query.limit === undefined ? undefined : Number(request.query.limit),
        cursor: request.query.cursor,
      },
    ),
  );

  route(app, endpoints.galleryFolders, {}, async (request) =>
    gallery.folders(deps, await gallery.ownerFor(deps, request.query, request.member.user)),
  );

  // Whatever accountId, userId or username the form names, an upload goes into one's own gallery.
  route(app, endpoints.galleryUpload, {}, async (request, reply) => {
    // Counted before the body is read: a refused upload costs no disk and no picture work.
    const release = await app.uploads.begin(`member:${request.member.user.id}`);
    let image: Awaited<ReturnType<typeof gallery.upload>>;
    try {
      const form = await streamForm(request, 'image', deps.incomingDir);
      // The temporary file is gone before the answer leaves, success or not.
      try {
        // The same form sent again with its Idempotency-Key gets the first answer, and no photo.
        if (await app.idempotency.claimForm(request, reply, form.digest)) return reply;
        // The key goes on the photo: a run after one that died unanswered finds that photo.
        image = await gallery.upload(
          deps,
          request.member.user,
          form.filePath,
          form.fields.folder,
          request.idempotency?.key,
        );
      } finally {
        if (form.filePath) await fs.rm(form.filePath, { force: true });
      }
    } finally {
      await release();
    }
    return reply.status(201).send({ image });
  });

  route(app, endpoints.galleryPatch, {}, async (request) => ({
    image: await gallery.patchImage(deps, request.member.user, request.params.ref, request.body),
  }));

  route(app, endpoints.galleryDelete, {}, async (request, reply) => {
    await gallery.deleteImage(deps, request.member.user, request.params.ref);
    return reply.status(204).send();
  });

  route(app, endpoints.galleryReorder, {}, async (request) => {
    await gallery.reorder(deps, request.member.user, request.body);
    return { ok: true as const };
  });
  done();
};
