import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { avatarPng } from '../helpers.ts';

/** Real image files on disk, for the file inputs (both drivers hand over paths). */
export interface Files {
  avatar: string;
  photos: string[];
  remove: () => void;
}

export async function makeFiles(): Promise<Files> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orbit-cross-browser-'));
  const avatar = path.join(dir, 'me.png');
  fs.writeFileSync(avatar, await avatarPng());
  const photos = await Promise.all(
    ['#e4572e', '#29335c'].map(async (background, index) => {
      const file = path.join(dir, `photo-${index + 1}.png`);
      await sharp({ create: { width: 640, height: 480, channels: 3, background } })
        .png()
        .toFile(file);
      return file;
    }),
  );
  return { avatar, photos, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
