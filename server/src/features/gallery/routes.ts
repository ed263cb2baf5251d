import fs from 'node:fs/promises';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import * as endpoints from '../../../../src/contracts/endpoints.ts';
import type { GalleryOwnerQuery } from '../../../../src/contracts/gallery.ts';
import type { UserRow } from '../../db/schema.ts';
import { NotFound } from '../../errors.ts';
import { streamForm } from '../../lib/multipart.ts';
import { route } from '../../lib/route.ts';
import { visibleMemberById, visibleMemberByUsername } from '../../members/blocks.ts';
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

  /**
   * Whose gallery: userId, else username, else the member asking. A member blocked either way
   * with the one asking has no gallery to them (docs/product.md "Blocking"): the same lookup says so.
   */
  const ownerFrom = async (query: GalleryOwnerQuery, me: UserRow) => {
    const owner = query.userId
      ? await visibleMemberById(deps.db, me.id, query.userId)
      : query.username
        ? await visibleMemberByUsername(deps.db, me.id, query.username)
        : me;
    if (!owner) throw new NotFound(gallery.GALLERY_MESSAGES.unknownOwner);
    return owner;
  };

  route(app, endpoints.galleryPage, {}, async (request) =>
    gallery.listGallery(
      deps,
      await ownerFrom(request.query, request.member.user),
      request.member.user.id,
      {
        folder: request.query.folder,
        limit: request.query.limit === undefined ? undefined : Number(request.query.limit),
        cursor: request.query.cursor,
      },
    ),
  );

  route(app, endpoints.galleryFolders, {}, async (request) =>
    gallery.folders(deps, await ownerFrom(request.query, request.member.user)),
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
        image = await gallery.upload(deps, request.member.user, form.filePath, form.fields.folder);
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
