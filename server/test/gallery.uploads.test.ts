/** POST /api/gallery (docs/product.md "Uploads"; docs/decisions.md "Uploads are checked and cleaned"): accepted types, refusals, metadata, folders. */
import fs from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';
import type { GalleryImage } from '../../src/contracts/gallery.ts';
import {
  HEIC_PHOTO,
  REFUSED,
  diskPath,
  galleryState,
  imageOf,
  noisyImage,
  postUpload,
  uploadImage,
  uprightHeicWithExif,
} from './gallery-helpers.ts';
import { type Member, exifHasGps, signupMembers, forEachApp, jpegWithGps } from './helpers.ts';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A small, well-formed PNG whose header declares a 30000 x 30000 (900 MP) RGB canvas. */
function pngDeclaringHugeCanvas(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(30_000, 0);
  header.writeUInt32BE(30_000, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', zlib.deflateSync(Buffer.alloc(1024))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

forEachApp((t) => {
  let member: Member;

  beforeAll(async () => {
    [member] = await signupMembers(t.app, 1);
  });

  it.each([
    ['jpeg', 'photo.jpg', 'image/jpeg'],
    ['png', 'photo.png', 'image/png'],
    ['webp', 'photo.webp', 'image/webp'],
    ['gif', 'photo.gif', 'image/gif'],
    ['avif', 'photo.avif', 'image/avif'],
  ] as const)(
    'accepts a %s upload with 201 and serves both files as immutable WebP',
    async (format, filename, type) => {
      const data = await imageOf(format);

      const response = await postUpload(t.app, member, { data, filename, type });

      expect(response.statusCode).toBe(201);
      const { image } = response.json<{ image: GalleryImage }>();
      expect(image.url).toMatch(/^\/uploads\/gallery\/[0-9a-f]{32}\.webp$/);
      expect(image.thumbnailUrl).toMatch(/^\/uploads\/gallery\/[0-9a-f]{32}-thumb\.webp$/);
      expect(image.owner.id).toBe(member.user.id);
      for (const url of [image.url, image.thumbnailUrl]) {
        const file = await t.app.inject({ method: 'GET', url });
        expect(file.statusCode).toBe(200);
        expect(file.headers['content-type']).toBe('image/webp');
        expect(file.headers['cache-control']).toContain('immutable');
      }
    },
  );

  it.each([
    [
      'a text file renamed .jpg',
      415,
      REFUSED.notAnImage,
      () =>
        Promise.resolve({
          data: Buffer.from('just text, no pixels'),
          filename: 'a.jpg',
          type: 'image/jpeg',
        }),
    ],
    [
      'an SVG',
      415,
      REFUSED.notAnImage,
      () =>
        Promise.resolve({
          data: Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
          ),
          filename: 'a.svg',
          type: 'image/svg+xml',
        }),
    ],
    [
      'a truncated JPEG (its first half)',
      415,
      undefined,
      async () => {
        const jpeg = await noisyImage('jpeg', 320, 240);
        return {
          data: jpeg.subarray(0, Math.floor(jpeg.length / 2)),
          filename: 'cut.jpg',
          type: 'image/jpeg',
        };
      },
    ],
    [
      'a HEIC whose picture is cut off',
      415,
      REFUSED.damaged,
      async () => {
        const heic = await fs.readFile(HEIC_PHOTO);
        return {
          data: heic.subarray(0, heic.length - 400),
          filename: 'cut.heic',
          type: 'image/heic',
        };
      },
    ],
    [
      'a PNG whose header declares 30000 x 30000 pixels',
      413,
      REFUSED.tooManyPixels,
      () =>
        Promise.resolve({
          data: pngDeclaringHugeCanvas(),
          filename: 'bomb.png',
          type: 'image/png',
        }),
    ],
    [
      'a 21 MB file',
      413,
      REFUSED.tooLarge,
      async () => ({
        data: Buffer.concat([await imageOf('png', 8, 8), Buffer.alloc(21 * 1024 * 1024)]),
        filename: 'big.png',
        type: 'image/png',
      }),
    ],
  ] as const)(
    'refuses %s with %i and leaves no file and no row behind',
    async (_name, status, message, make) => {
      const before = await galleryState(t.app, t.config.uploadsDir);

      const response = await postUpload(t.app, member, await make());

      expect(response.statusCode).toBe(status);
      if (message) expect(response.json()).toEqual({ error: message });
      else expect(response.json<{ error: string }>().error).toEqual(expect.any(String));
      expect(await galleryState(t.app, t.config.uploadsDir)).toEqual({ ...before, incoming: [] });
    },
  );

  it('refuses a form without a file with 400 and no row', async () => {
    const before = await galleryState(t.app, t.config.uploadsDir);

    const response = await postUpload(t.app, member, undefined, { folder: 'Trips' });

    expect(response.statusCode).toBe(400);
    expect(await galleryState(t.app, t.config.uploadsDir)).toEqual({ ...before, incoming: [] });
  });

  it('removes GPS EXIF from both the display file and the thumbnail', async () => {
    const data = await jpegWithGps(800, 600, '#aa5533');
    expect(exifHasGps((await sharp(data).metadata()).exif)).toBe(true);

    const image = await uploadImage(
      t.app,
      member,
      {},
      {
        data,
        filename: 'gps.jpg',
        type: 'image/jpeg',
      },
    );
    for (const url of [image.url, image.thumbnailUrl]) {
      const stored = await fs.readFile(diskPath(t.config.uploadsDir, url));
      const metadata = await sharp(stored).metadata();
      expect(metadata.format).toBe('webp');
      expect(metadata.exif).toBeUndefined();
      expect(stored.includes(Buffer.from('GPS'))).toBe(false);
    }
    const thumb = await sharp(
      await fs.readFile(diskPath(t.config.uploadsDir, image.thumbnailUrl)),
    ).metadata();
    expect(Math.max(thumb.width ?? 0, thumb.height ?? 0)).toBeLessThanOrEqual(480);
  });

  it('decodes an iPhone HEIC (HEVC): turned upright, GPS gone, a WebP display and thumbnail', async () => {
    const gps = (await sharp(await jpegWithGps(8, 8, '#fff')).metadata()).exif;
    const data = await uprightHeicWithExif(gps as Buffer);
    const input = await sharp(data).metadata();
    expect([input.compression, input.width, input.height]).toEqual(['hevc', 480, 640]);
    expect(exifHasGps(input.exif)).toBe(true);

    const image = await uploadImage(
      t.app,
      member,
      {},
      {
        data,
        filename: 'IMG_0001.HEIC',
        type: 'image/heic',
      },
    );
    expect([image.width, image.height]).toEqual([480, 640]);
    const sizes = [];
    for (const url of [image.url, image.thumbnailUrl]) {
      const stored = await fs.readFile(diskPath(t.config.uploadsDir, url));
      const metadata = await sharp(stored).metadata();
      expect(metadata.format).toBe('webp');
      expect([metadata.exif, metadata.icc, metadata.xmp]).toEqual([
        undefined,
        undefined,
        undefined,
      ]);
      expect(stored.includes(Buffer.from('GPS'))).toBe(false);
      sizes.push([metadata.width, metadata.height]);
    }
    expect(sizes).toEqual([
      [480, 640],
      [360, 480],
    ]);
  });

  it('stores the folder the form names, and All when it names none', async () => {
    const data = await imageOf('png');
    const named = await postUpload(
      t.app,
      member,
      { data, filename: 'a.png', type: 'image/png' },
      { folder: '  Summer   2025 ' },
    );
    const unnamed = await postUpload(t.app, member, { data, filename: 'b.png', type: 'image/png' });

    expect(named.json<{ image: GalleryImage }>().image.folder).toBe('Summer 2025');
    expect(unnamed.json<{ image: GalleryImage }>().image.folder).toBe('All');
  });

  it('writes the display file and the thumbnail under uploads/gallery and nothing else', async () => {
    const before = await galleryState(t.app, t.config.uploadsDir);

    const response = await postUpload(t.app, member, {
      data: await imageOf('jpeg'),
      filename: 'c.jpg',
      type: 'image/jpeg',
    });

    const { image } = response.json<{ image: GalleryImage }>();
    const after = await galleryState(t.app, t.config.uploadsDir);
    expect(after.rows).toBe(before.rows + 1);
    expect(after.incoming).toEqual([]);
    expect(after.gallery.filter((file) => !before.gallery.includes(file)).sort()).toEqual(
      [path.basename(image.url), path.basename(image.thumbnailUrl)].sort(),
    );
  });
});
