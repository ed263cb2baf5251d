/** Gallery test helpers: uploads through the real endpoint, image makers, what is left on disk. */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import type { GalleryImage } from '../../src/contracts/gallery.ts';
import { type FilePart, type Member, asBearer, filesUnder, multipart } from './factories.ts';

export type Format = 'jpeg' | 'png' | 'webp' | 'gif' | 'avif';

/** A small photo-like image in the given format, made with sharp. */
export function imageOf(format: Format, width = 120, height = 90): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#3366cc' } })
    .toFormat(format)
    .toBuffer();
}

export async function jpegPart(width = 120, height = 90): Promise<FilePart> {
  return { data: await imageOf('jpeg', width, height), filename: 'photo.jpg', type: 'image/jpeg' };
}

/** POST /api/gallery with one file under `image` plus any other fields, as a bearer call. */
export async function postUpload(
  app: FastifyInstance,
  member: Member,
  file: FilePart | undefined,
  fields: Record<string, string> = {},
) {
  const { payload, headers } = await multipart({ ...fields, image: file });
  return app.inject({
    method: 'POST',
    url: '/api/gallery',
    payload,
    headers: { ...headers, ...asBearer(member) },
  });
}

/** Uploads a small JPEG and answers the stored image, failing loudly otherwise. */
export async function uploadImage(
  app: FastifyInstance,
  member: Member,
  fields: Record<string, string> = {},
): Promise<GalleryImage> {
  const response = await postUpload(app, member, await jpegPart(), fields);
  if (response.statusCode !== 201)
    throw new Error(`upload answered ${response.statusCode}: ${response.body}`);
  return response.json<{ image: GalleryImage }>().image;
}

export async function listGallery(
  app: FastifyInstance,
  member: Member,
  query: Record<string, string> = {},
): Promise<GalleryImage[]> {
  const response = await app.inject({
    method: 'GET',
    url: '/api/gallery',
    query,
    headers: asBearer(member),
  });
  if (response.statusCode !== 200)
    throw new Error(`list answered ${response.statusCode}: ${response.body}`);
  return response.json<{ images: GalleryImage[] }>().images;
}

export function patchImage(
  app: FastifyInstance,
  member: Member,
  ref: string,
  body: Record<string, unknown>,
) {
  return app.inject({
    method: 'PATCH',
    url: `/api/gallery/${encodeURIComponent(ref)}`,
    payload: body,
    headers: asBearer(member),
  });
}

export function deleteImage(app: FastifyInstance, member: Member, ref: string) {
  return app.inject({
    method: 'DELETE',
    url: `/api/gallery/${encodeURIComponent(ref)}`,
    headers: asBearer(member),
  });
}

export function reorder(app: FastifyInstance, member: Member, order: string[]) {
  return app.inject({
    method: 'POST',
    url: '/api/gallery/reorder',
    payload: { order },
    headers: asBearer(member),
  });
}

/** A stored file's path on disk, from its /uploads/... URL. */
export function diskPath(uploadsDir: string, url: string): string {
  return path.join(uploadsDir, url.replace(/^\/uploads\//, ''));
}

/** Every file in uploads/gallery and uploads/.incoming, and the number of gallery rows. */
export async function galleryState(app: FastifyInstance, uploadsDir: string) {
  const gallery = await filesUnder(path.join(uploadsDir, 'gallery'));
  const incoming = await filesUnder(path.join(uploadsDir, '.incoming'));
  const row = await app.db
    .selectFrom('gallery_images')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return { gallery, incoming, rows: Number(row.count) };
}
