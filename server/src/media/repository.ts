import type { Db } from '../db/index.ts';
import { AVATAR_PREFIX, GALLERY_PREFIX } from './store.ts';

/** Which of these keys a row names: a gallery image's display file or thumbnail, or an avatar. */
export async function referencedKeys(db: Db, keys: readonly string[]): Promise<Set<string>> {
  const names = keys
    .filter((key) => key.startsWith(GALLERY_PREFIX))
    .map((key) => key.slice(GALLERY_PREFIX.length));
  const avatars = keys.filter((key) => key.startsWith(AVATAR_PREFIX));
  const found = new Set<string>();
  if (names.length > 0) {
    const rows = await db
      .selectFrom('gallery_images')
      .select(['display_file', 'thumb_file'])
      .where((eb) => eb.or([eb('display_file', 'in', names), eb('thumb_file', 'in', names)]))
      .execute();
    for (const row of rows) {
      found.add(`${GALLERY_PREFIX}${row.display_file}`);
      found.add(`${GALLERY_PREFIX}${row.thumb_file}`);
    }
  }
  if (avatars.length > 0) {
    const rows = await db
      .selectFrom('users')
      .select('profile_image')
      .where('profile_image', 'in', avatars)
      .execute();
    for (const row of rows) found.add(row.profile_image);
  }
  return found;
}
