/**
 * A small, strict unzip for tests: reads the end record and the central directory, then each
 * entry from its local header, inflates it with node's zlib and checks its size and CRC-32 against
 * the directory. Anything truncated or inconsistent throws, so a half-written archive never passes.
 */
import zlib from 'node:zlib';

export interface UnzippedEntry {
  name: string;
  data: Buffer;
  compressed: boolean;
  modified: Date;
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

function dosDate(date: number, time: number): Date {
  return new Date(
    Date.UTC(
      1980 + (date >> 9),
      ((date >> 5) & 0x0f) - 1,
      date & 0x1f,
      time >> 11,
      (time >> 5) & 0x3f,
      (time & 0x1f) * 2,
    ),
  );
}

/** Every entry of the archive in directory order; throws on anything a zip reader would refuse. */
export function unzip(archive: Buffer): UnzippedEntry[] {
  const endAt = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (endAt < 0 || archive.length - endAt < 22)
    throw new Error('not a complete zip: no end of central directory');
  if (archive.readUInt32LE(endAt) !== END_OF_CENTRAL_DIRECTORY) throw new Error('bad end record');
  const count = archive.readUInt16LE(endAt + 10);
  const directorySize = archive.readUInt32LE(endAt + 12);
  let at = archive.readUInt32LE(endAt + 16);
  if (at + directorySize > endAt) throw new Error('the central directory runs past its end');
  const entries: UnzippedEntry[] = [];
  for (let index = 0; index < count; index += 1) {
    if (archive.readUInt32LE(at) !== CENTRAL_HEADER) throw new Error(`bad central header ${index}`);
    const method = archive.readUInt16LE(at + 10);
    const time = archive.readUInt16LE(at + 12);
    const date = archive.readUInt16LE(at + 14);
    const crc = archive.readUInt32LE(at + 16);
    const compressedSize = archive.readUInt32LE(at + 20);
    const size = archive.readUInt32LE(at + 24);
    const nameLength = archive.readUInt16LE(at + 28);
    const extraLength = archive.readUInt16LE(at + 30);
    const commentLength = archive.readUInt16LE(at + 32);
    const localAt = archive.readUInt32LE(at + 42);
    const name = archive.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    at += 46 + nameLength + extraLength + commentLength;

    if (archive.readUInt32LE(localAt) !== LOCAL_HEADER)
      throw new Error(`bad local header: ${name}`);
    const localName = archive.readUInt16LE(localAt + 26);
    const localExtra = archive.readUInt16LE(localAt + 28);
    const start = localAt + 30 + localName + localExtra;
    const raw = archive.subarray(start, start + compressedSize);
    if (raw.length !== compressedSize) throw new Error(`truncated entry: ${name}`);
    if (method !== 0 && method !== 8) throw new Error(`unknown compression ${method}: ${name}`);
    const data = method === 8 ? zlib.inflateRawSync(raw) : Buffer.from(raw);
    if (data.length !== size) throw new Error(`wrong size: ${name}`);
    if (zlib.crc32(data) !== crc) throw new Error(`wrong CRC-32: ${name}`);
    entries.push({ name, data, compressed: method === 8, modified: dosDate(date, time) });
  }
  return entries;
}

/** The entries by name. */
export function unzipByName(archive: Buffer): Map<string, UnzippedEntry> {
  return new Map(unzip(archive).map((entry) => [entry.name, entry]));
}
