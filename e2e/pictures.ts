/** Files the browser tests upload or share into Orbit, made at test time. */
import type { Page } from '@playwright/test';
import sharp from 'sharp';

export interface Picture {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** A real JPEG of `width` x `height`, of one colour. */
export async function jpeg(
  name: string,
  width: number,
  height: number,
  background = '#669bbc',
): Promise<Picture> {
  const input = sharp({ create: { width, height, channels: 3, background } });
  return { name, mimeType: 'image/jpeg', buffer: await input.jpeg().toBuffer() };
}

/** A 2 x 2 BMP: a picture the browser shows, in a format the server does not take. */
export function bmp(name: string): Picture {
  const rowBytes = 8; // two 3-byte pixels, padded to 4 bytes
  const pixels = rowBytes * 2;
  const buffer = Buffer.alloc(54 + pixels);
  buffer.write('BM', 0, 'ascii');
  buffer.writeUInt32LE(buffer.length, 2);
  buffer.writeUInt32LE(54, 10);
  buffer.writeUInt32LE(40, 14);
  buffer.writeInt32LE(2, 18);
  buffer.writeInt32LE(2, 22);
  buffer.writeUInt16LE(1, 26);
  buffer.writeUInt16LE(24, 28);
  buffer.writeUInt32LE(pixels, 34);
  buffer.fill(0x80, 54);
  return { name, mimeType: 'image/bmp', buffer };
}

/**
 * Shares files into Orbit as a phone's share sheet does: a multipart POST navigation to /share
 * with the files in the `photos` field, which the service worker answers.
 */
export async function share(page: Page, files: Picture[]): Promise<void> {
  await page.evaluate(
    (shared) => {
      const form = document.createElement('form');
      form.action = '/share';
      form.method = 'post';
      form.enctype = 'multipart/form-data';
      const input = document.createElement('input');
      input.type = 'file';
      input.name = 'photos';
      input.multiple = true;
      const transfer = new DataTransfer();
      for (const { name, mimeType, base64 } of shared) {
        const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
        transfer.items.add(new File([bytes], name, { type: mimeType }));
      }
      input.files = transfer.files;
      form.append(input);
      document.body.append(form);
      form.submit();
    },
    files.map(({ name, mimeType, buffer }) => ({
      name,
      mimeType,
      base64: buffer.toString('base64'),
    })),
  );
}
