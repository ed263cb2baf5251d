/**
 * Multipart bodies for the routes that take a form (signup, upload, profile): random fields, one
 * file that is a real picture, garbage, a truncated picture or a PNG header claiming a huge size,
 * under the right or a wrong content type, sometimes cut short or with the wrong boundary.
 */
import zlib from 'node:zlib';
import fc from 'fast-check';
import sharp from 'sharp';
import { anyString } from './values.ts';
import type { Hints } from './schema.ts';

export interface Pictures {
  png: Buffer;
  jpeg: Buffer;
  webp: Buffer;
  gif: Buffer;
}

/** Small real pictures, made once per run. */
export async function makePictures(): Promise<Pictures> {
  const base = () =>
    sharp({ create: { width: 24, height: 16, channels: 3, background: '#3355aa' } });
  const [png, jpeg, webp, gif] = await Promise.all([
    base().png().toBuffer(),
    base().jpeg().toBuffer(),
    base().webp().toBuffer(),
    base().gif().toBuffer(),
  ]);
  return { png, jpeg, webp, gif };
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([head, body, crc]);
}

/** A well-formed PNG header announcing `width`×`height` pixels, with one tiny compressed row. */
function pngClaiming(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(2, 9); // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', zlib.deflateSync(Buffer.alloc(16))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The bytes a file part carries. */
function fileBytes(pictures: Pictures): fc.Arbitrary<Buffer> {
  const real = fc.constantFrom(pictures.png, pictures.jpeg, pictures.webp, pictures.gif);
  return fc.oneof(
    { arbitrary: real, weight: 10 },
    { arbitrary: fc.uint8Array({ maxLength: 256 }).map((bytes) => Buffer.from(bytes)), weight: 2 },
    {
      arbitrary: fc
        .tuple(real, fc.double({ min: 0, max: 1, noNaN: true }))
        .map(([picture, share]) => picture.subarray(0, Math.floor(picture.length * share))),
      weight: 2,
    },
    {
      arbitrary: fc
        .tuple(
          fc.constantFrom(1, 2, 16_383, 16_384, 65_535, 100_000, 2 ** 31 - 1, 2 ** 32 - 1),
          fc.constantFrom(1, 2, 16_384, 65_535, 100_000, 2 ** 31 - 1, 2 ** 32 - 1),
        )
        .map(([width, height]) => pngClaiming(width, height)),
      weight: 2,
    },
    {
      // A real picture with a flipped byte somewhere in it.
      arbitrary: fc.tuple(real, fc.nat(), fc.nat(255)).map(([picture, at, value]) => {
        const copy = Buffer.from(picture);
        copy[at % copy.length] = value;
        return copy;
      }),
      weight: 2,
    },
    {
      arbitrary: fc.constantFrom(
        Buffer.alloc(0),
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>'),
        Buffer.from('GIF89a'),
        Buffer.from('%PDF-1.4\n'),
      ),
      weight: 1,
    },
  );
}

interface FormPart {
  name: string;
  value: string | Buffer;
  filename?: string;
  type?: string;
}

/** A multipart/form-data body, written by hand so it can also be broken. */
function encodeForm(parts: FormPart[], boundary: string): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition =
      part.filename === undefined
        ? `form-data; name="${part.name}"`
        : `form-data; name="${part.name}"; filename="${part.filename}"`;
    const head =
      `--${boundary}\r\nContent-Disposition: ${disposition}\r\n` +
      (part.type ? `Content-Type: ${part.type}\r\n` : '') +
      '\r\n';
    chunks.push(Buffer.from(head), Buffer.from(part.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

export interface FormSpec {
  /** The fields the route reads. */
  fields: readonly string[];
  /** The file field's name. */
  file: string;
  /** Values the route takes for sure, for forms meant to succeed. */
  good?: Record<string, fc.Arbitrary<string>>;
}

export interface RawBody {
  payload: Buffer | string;
  contentType: string | undefined;
}

/** A form for `spec`: its fields (and others) with any text, a file or none, in a body that may be broken. */
export function formBody(spec: FormSpec, pictures: Pictures, hints: Hints): fc.Arbitrary<RawBody> {
  const field = fc.oneof(
    { arbitrary: fc.constantFrom(...spec.fields), weight: 6 },
    { arbitrary: anyString(20), weight: 1 },
  );
  const textPart = field.chain((name) =>
    anyString(200, hints(name)).map((value): FormPart => ({ name, value })),
  );
  const filePart = fc
    .record({
      name: fc.oneof(
        { arbitrary: fc.constant(spec.file), weight: 8 },
        { arbitrary: fc.constantFrom(...spec.fields), weight: 1 },
      ),
      value: fileBytes(pictures),
      filename: fc.oneof(
        fc.constantFrom('me.png', 'photo.jpg', 'x.webp', '../../etc/passwd', 'a"b.png', ''),
        anyString(40),
      ),
      type: fc.constantFrom(
        'image/png',
        'image/jpeg',
        'image/webp',
        'application/octet-stream',
        'text/html',
        '',
      ),
    })
    .map(({ type, ...part }): FormPart => (type ? { ...part, type } : part));
  // Every field the route reads, with good values where the hints have some, and a picture.
  const complete = fc
    .tuple(
      fc.tuple(
        ...spec.fields.map((name) =>
          (spec.good?.[name] ?? hints(name) ?? fc.string({ minLength: 1, maxLength: 20 })).map(
            (value): FormPart => ({ name, value }),
          ),
        ),
      ),
      fc.constantFrom(pictures.png, pictures.jpeg, pictures.webp, pictures.gif),
    )
    .map(([texts, picture]): FormPart[] => [
      ...texts,
      { name: spec.file, value: picture, filename: 'picture', type: 'application/octet-stream' },
    ]);
  const random = fc
    .tuple(
      fc.array(textPart, { maxLength: 12 }),
      fc.oneof(
        { arbitrary: filePart.map((part) => [part]), weight: 6 },
        { arbitrary: fc.constant([]), weight: 1 },
        { arbitrary: fc.array(filePart, { minLength: 2, maxLength: 2 }), weight: 1 },
      ),
    )
    .map(([texts, files]) => [...texts, ...files]);
  const parts = fc.oneof(complete, random);
  return fc
    .record({
      parts,
      boundary: fc.constantFrom(
        'orbit-fuzz-boundary',
        'x',
        '----WebKitFormBoundary7MA4YWxkTrZu0gW',
      ),
      breakage: fc.constantFrom(
        ...Array.from({ length: 10 }, () => 'none' as const),
        'truncated',
        'wrong-boundary',
        'no-boundary',
        'not-multipart',
        'no-content-type',
      ),
      cut: fc.double({ min: 0, max: 1, noNaN: true }),
    })
    .map(({ parts, boundary, breakage, cut }): RawBody => {
      const body = encodeForm(parts, boundary);
      switch (breakage) {
        case 'truncated':
          return {
            payload: body.subarray(0, Math.floor(body.length * cut)),
            contentType: `multipart/form-data; boundary=${boundary}`,
          };
        case 'wrong-boundary':
          return { payload: body, contentType: 'multipart/form-data; boundary=other-boundary' };
        case 'no-boundary':
          return { payload: body, contentType: 'multipart/form-data' };
        case 'not-multipart':
          return { payload: body, contentType: 'application/json' };
        case 'no-content-type':
          return { payload: body, contentType: undefined };
        case 'none':
          return { payload: body, contentType: `multipart/form-data; boundary=${boundary}` };
      }
    });
}
