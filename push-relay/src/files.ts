import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';

/** A name beside `file` for writing its next content before it takes the file's place. */
const temporaryBeside = (file: string) =>
  `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;

/** Opens `file` with `flags`, writes `content` and flushes it to the disk before closing. */
async function writeSynced(file: string, content: string, mode: number, flags: 'w' | 'wx') {
  const handle = await fs.open(file, flags, mode);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes a whole file, or nothing, only when it does not exist yet; answers false when another
 * process created it first (relays on a shared data directory starting at once).
 */
export async function createFileAtomic(
  file: string,
  content: string,
  mode = 0o600,
): Promise<boolean> {
  const temporary = temporaryBeside(file);
  try {
    await writeSynced(temporary, content, mode, 'wx');
    try {
      // A hard link, unlike a rename, fails when the name is taken.
      await fs.link(temporary, file);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return false;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw error;
      // A file system without hard links: the last writer wins, as a rename does.
      await fs.rename(temporary, file);
      return true;
    }
  } finally {
    await fs.rm(temporary, { force: true });
  }
}
