import fs from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { CAPTION_MAX } from '../../../../src/contracts/gallery.ts';
import { NotFound } from '../../errors.ts';
import { streamForm } from '../../lib/multipart.ts';
import { findUserById, findUserByUsername } from '../auth/repository.ts';
import * as gallery from './service.ts';

const OwnerQuery = z.object({
  accountId: z.string().max(100).optional(),
  userId: z.string().max(100).optional(),
  username: z.string().max(100).optional(),
  folder: z.string().max(100).optional(),
});

const RefParams = z.object({ ref: z.string().min(1).max(300) });

const reaction = z.union([z.boolean(), z.array(z.string().max(100)).max(10_000)]).optional();
const PatchBody = z.object({
  accountId: z.string().max(100).optional(),
  likes: reaction,
  dislikes: reaction,
  caption: z
    .string()
    .max(CAPTION_MAX * 4)
    .optional(),
  folder: z.string().max(200).optional(),
});

const ReorderBody = z.object({
  accountId: z.string().max(100).optional(),
  userId: z.string().max(100).optional(),
  order: z
    .array(z.string().min(1).max(100), { error: gallery.GALLERY_MESSAGES.orderInvalid })
    .max(10_000),
});

export function galleryRoutes(app: FastifyInstance, { deps }: { deps: gallery.GalleryDeps }) {
  /** Whose gallery: accountId or userId, else username, else the member asking. */
  const ownerFrom = async (
    query: z.infer<typeof OwnerQuery>,
    me: Awaited<ReturnType<typeof findUserById>>,
  ) => {
    const id = query.accountId || query.userId;
    const owner = id
      ? await findUserById(deps.db, id)
      : query.username
        ? await findUserByUsername(deps.db, query.username)
        : me;
    if (!owner) throw new NotFound(gallery.GALLERY_MESSAGES.unknownOwner);
    return owner;
  };

  app.get('/api/gallery', async (request) => {
    const { user } = await request.member();
    const query = OwnerQuery.parse(request.query);
    return { images: await gallery.listGallery(deps, await ownerFrom(query, user), query.folder) };
  });

  app.get('/api/gallery/folders', async (request) => {
    const { user } = await request.member();
    return {
      folders: await gallery.folders(deps, await ownerFrom(OwnerQuery.parse(request.query), user)),
    };
  });

  // Whatever accountId, userId or username the form names, an upload goes into one's own gallery.
  app.post('/api/gallery', async (request, reply) => {
    const { user } = await request.member();
    const form = await streamForm(request, 'image', deps.incomingDir);
    // The temporary file is gone before the answer leaves, success or not.
    let image: Awaited<ReturnType<typeof gallery.upload>>;
    try {
      image = await gallery.upload(deps, user, form.filePath, form.fields.folder);
    } finally {
      if (form.filePath) await fs.rm(form.filePath, { force: true });
    }
    return reply.status(201).send({ image });
  });

  app.patch('/api/gallery/:ref', async (request) => {
    const { user } = await request.member();
    const { ref } = RefParams.parse(request.params);
    const body = PatchBody.parse(request.body ?? {});
    return { image: await gallery.patchImage(deps, user, ref, body) };
  });

  app.delete('/api/gallery/:ref', async (request, reply) => {
    const { user } = await request.member();
    const { ref } = RefParams.parse(request.params);
    await gallery.deleteImage(deps, user, ref);
    return reply.status(204).send();
  });

  app.post('/api/gallery/reorder', async (request) => {
    const { user } = await request.member();
    const body = ReorderBody.parse(request.body ?? {});
    await gallery.reorder(deps, user, body.order);
    return { ok: true };
  });
}
