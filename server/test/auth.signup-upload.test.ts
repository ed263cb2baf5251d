import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { expect, it } from 'vitest';
import type { AuthResponse } from '../../src/contracts/user.ts';
import { REFUSED, uprightHeicWithExif } from './gallery-helpers.ts';
import { exifHasGps, filesUnder, postSignup, uniqueUsername, forEachApp, GPS } from './helpers.ts';

function photoWithGps(format: 'jpeg' | 'png'): Promise<Buffer> {
  const image = sharp({ create: { width: 80, height: 60, channels: 3, background: '#aa5533' } });
  return (format === 'jpeg' ? image.jpeg() : image.png()).withExif(GPS).toBuffer();
}

forEachApp((t) => {
  /** Signs up with a given file and answers the response plus whatever appeared under uploads. */
  async function signupWith(data: Buffer, filename: string, type: string) {
    const before = await filesUnder(t.config.uploadsDir);
    const username = uniqueUsername();
    const response = await postSignup(t.app, { username, profilePic: { data, filename, type } });
    const after = await filesUnder(t.config.uploadsDir);
    return { response, username, added: after.filter((file) => !before.includes(file)) };
  }

  async function isUsernameFree(username: string): Promise<boolean> {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/check-username?username=${username}`,
    });
    return response.json<{ available: boolean }>().available;
  }

  it('refuses a text file renamed .jpg with 415 and writes nothing under uploads', async () => {
    const { response, username, added } = await signupWith(
      Buffer.from('just some text, not pixels'),
      'me.jpg',
      'image/jpeg',
    );

    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ error: REFUSED.notAnImage });
    expect(added).toEqual([]);
    expect(await isUsernameFree(username)).toBe(true);
  });

  it('refuses an SVG with 415', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>',
    );
    const { response, added } = await signupWith(svg, 'me.svg', 'image/svg+xml');

    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ error: REFUSED.notAnImage });
    expect(added).toEqual([]);
  });

  it.each([
    { kind: 'JPEG', photo: () => photoWithGps('jpeg'), filename: 'me.jpeg', type: 'image/jpeg' },
    { kind: 'PNG', photo: () => photoWithGps('png'), filename: 'me.png', type: 'image/png' },
    {
      kind: 'iPhone HEIC (HEVC)',
      photo: async () =>
        uprightHeicWithExif((await sharp(await photoWithGps('jpeg')).metadata()).exif as Buffer),
      filename: 'IMG_0001.HEIC',
      type: 'image/heic',
    },
  ])(
    'takes a $kind avatar, its GPS EXIF removed, as a 512 px WebP',
    async ({ photo, filename, type }) => {
      const input = await photo();
      expect(exifHasGps((await sharp(input).metadata()).exif)).toBe(true);

      const { response, added } = await signupWith(input, filename, type);

      expect(response.statusCode).toBe(201);
      const stored = response.json<AuthResponse>().user.profileImage.replace(/^\/uploads\//, '');
      expect(added).toEqual([stored]);
      const metadata = await sharp(
        await fs.readFile(path.join(t.config.uploadsDir, stored)),
      ).metadata();
      expect([metadata.format, metadata.width, metadata.height]).toEqual(['webp', 512, 512]);
      expect(metadata.exif).toBeUndefined();
    },
  );

  it('refuses a file over 20 MB with 413 and leaves no file in uploads', async () => {
    const big = Buffer.concat([
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
        .png()
        .toBuffer(),
      Buffer.alloc(20 * 1024 * 1024),
    ]);
    const { response, username, added } = await signupWith(big, 'huge.png', 'image/png');

    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: REFUSED.tooLarge });
    expect(added).toEqual([]);
    expect(await isUsernameFree(username)).toBe(true);
  });

  it('accepts a file of exactly 20 MB', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    // Trailing bytes after the PNG's end chunk are ignored by decoders.
    const exact = Buffer.concat([png, Buffer.alloc(20 * 1024 * 1024 - png.length)]);
    const { response } = await signupWith(exact, 'exact.png', 'image/png');

    expect(response.statusCode).toBe(201);
  });
});
