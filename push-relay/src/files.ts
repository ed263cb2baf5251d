import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';

/** Writes a whole file or nothing: a crash leaves the old content, never half of the new. */
export async function writeFileAtomic(file: string, content: string, mode = 0o600): Promise<void> {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const handle = await fs.open(temporary, 'w', mode);
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temporary, file);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
}
