/** Gallery test helpers: uploads through the real endpoint, image makers, what is left on disk. */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import type { GalleryImage } from '../../src/contracts/gallery.ts';
import { type FilePart, type Member, asBearer, filesUnder, multipart } from './factories.ts';

export type Format = 'jpeg' | 'png' | 'webp' | 'gif' | 'avif';

/** Why the server refuses an uploaded file, gallery photo or profile picture alike. */
export const REFUSED = {
  notAnImage: 'That file is not a supported image. Use JPEG, PNG, WebP, GIF, AVIF or HEIC.',
  tooManyPixels: 'That image has too many pixels (max 50 megapixels).',
  tooLarge: 'That file is too large (max 20 MB).',
  damaged: 'That image is damaged or incomplete.',
};

/** A small photo-like image in the given format, made with sharp. */
export function imageOf(format: Format, width = 120, height = 90): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#3366cc' } })
    .toFormat(format)
    .toBuffer();
}

/**
 * A photo of random grey noise, which compresses poorly: a 320 px square WebP is about 100 kB,
 * and half of a JPEG holds its whole header but only part of its pixels.
 */
export function noisyImage(format: 'jpeg' | 'webp', width = 320, height = 320): Promise<Buffer> {
  return sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#777',
      noise: { type: 'gaussian', mean: 128, sigma: 60 },
    },
  })
    .toFormat(format, { quality: 95 })
    .toBuffer();
}

export async function jpegPart(width = 120, height = 90): Promise<FilePart> {
  return { data: await imageOf('jpeg', width, height), filename: 'photo.jpg', type: 'image/jpeg' };
}

/** POST /api/gallery with one file under `image` plus any other fields and headers, as a bearer call. */
export async function postUpload(
  app: FastifyInstance,
  member: Member,
  file: FilePart | undefined,
  fields: Record<string, string> = {},
  more: Record<string, string> = {},
) {
  const { payload, headers } = await multipart({ ...fields, image: file });
  return app.inject({
    method: 'POST',
    url: '/api/gallery',
    payload,
    headers: { ...headers, ...asBearer(member), ...more },
  });
}

/** Uploads `file` (a small JPEG unless given) and answers the stored image, failing loudly otherwise. */
export async function uploadImage(
  app: FastifyInstance,
  member: Member,
  fields: Record<string, string> = {},
  file?: FilePart,
): Promise<GalleryImage> {
  const response = await postUpload(app, member, file ?? (await jpegPart()), fields);
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

/** An iPhone-style HEVC photo (640 x 480), as sharp's prebuilt build cannot decode it. */
export const HEIC_PHOTO = path.join(import.meta.dirname, 'fixtures', 'photo-640.heic');

function box(type: string, ...parts: Buffer[]): Buffer {
  const size = Buffer.alloc(4);
  size.writeUInt32BE(8 + parts.reduce((sum, part) => sum + part.length, 0));
  return Buffer.concat([size, Buffer.from(type, 'latin1'), ...parts]);
}

/** The child boxes of the box body `body`, by type. */
function children(body: Buffer): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  for (let at = 0; at < body.length; at += body.readUInt32BE(at))
    found.set(
      body.toString('latin1', at + 4, at + 8),
      body.subarray(at, at + body.readUInt32BE(at)),
    );
  return found;
}

function u16(value: number): Buffer {
  const out = Buffer.alloc(2);
  out.writeUInt16BE(value);
  return out;
}
function u32(value: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value);
  return out;
}

/**
 * HEIC_PHOTO as an iPhone writes a photo held upright: the pixels stored landscape with a 90°
 * rotation (`irot`) to show them portrait (480 x 640), and an EXIF item carrying `exif` (GPS).
 * Built box by box from the fixture, whose layout is ftyp, meta (hdlr, pitm, iloc, iinf, iprp),
 * mdat; the picture's one extent moves by however much the meta box grows.
 */
export async function uprightHeicWithExif(exif: Buffer): Promise<Buffer> {
  const file = await fs.readFile(HEIC_PHOTO);
  const top = children(file);
  const [ftyp, meta, mdat] = ['ftyp', 'meta', 'mdat'].map((type) => top.get(type) as Buffer);
  const parts = children((meta as Buffer).subarray(12));
  const iprp = children((parts.get('iprp') as Buffer).subarray(8));
  const ipco = (iprp.get('ipco') as Buffer).subarray(8);
  const ipma = iprp.get('ipma') as Buffer;
  // ipma: version/flags, entry count, one entry: item 1 with n associations of one byte each.
  const associations = ipma.subarray(19, 19 + (ipma[18] as number));
  const rotation = 0x80 | (children(ipco).size + 1); // the next property, essential
  const newIpma = box(
    'ipma',
    ipma.subarray(8, 18),
    Buffer.from([associations.length + 1]),
    associations,
    Buffer.from([rotation]),
  );
  const newIprp = box('iprp', box('ipco', ipco, box('irot', Buffer.from([1]))), newIpma);
  const iinf = (parts.get('iinf') as Buffer).subarray(8);
  const exifInfe = box('infe', Buffer.from([2, 0, 0, 0]), u16(2), u16(0), Buffer.from('Exif\0'));
  const newIinf = box('iinf', iinf.subarray(0, 4), u16(2), iinf.subarray(6), exifInfe);
  const iloc = (parts.get('iloc') as Buffer).subarray(8);
  // iloc version 0 with 4-byte offsets, lengths and base offsets: item 1's one extent.
  const pictureBase = iloc.readUInt32BE(12);
  const pictureExtent = iloc.subarray(16, 26);
  const exifPayload = Buffer.concat([u32(6), exif]); // the TIFF header follows "Exif\0\0"
  const ilocFor = (shift: number, exifAt: number) =>
    box(
      'iloc',
      iloc.subarray(0, 6),
      u16(2),
      Buffer.concat([u16(1), u16(0), u32(pictureBase + shift), pictureExtent]),
      Buffer.concat([u16(2), u16(0), u32(0), u16(1), u32(exifAt), u32(exifPayload.length)]),
    );
  const metaFor = (newIloc: Buffer) =>
    box(
      'meta',
      (meta as Buffer).subarray(8, 12), // version and flags
      parts.get('hdlr') as Buffer,
      parts.get('pitm') as Buffer,
      newIloc,
      newIinf,
      box('iref', u32(0), box('cdsc', u16(2), u16(1), u16(1))), // the EXIF describes item 1
      newIprp,
    );
  const grown = metaFor(ilocFor(0, 0)).length - (meta as Buffer).length;
  const exifAt = file.length + grown + 8;
  return Buffer.concat([
    ftyp as Buffer,
    metaFor(ilocFor(grown, exifAt)),
    mdat as Buffer,
    box('mdat', exifPayload),
  ]);
}
