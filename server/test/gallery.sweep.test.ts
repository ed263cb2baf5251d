/** sweepStrayFiles: files no row refers to go once they are an hour old; nothing else is touched. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { sweepStrayFiles } from '../src/features/gallery/service.ts';
import { diskPath, uploadImage } from './gallery-helpers.ts';
import { type Member, filesUnder, forEachDialect, signupMembers, useTestApp } from './helpers.ts';

const TWO_HOURS_AGO = () => new Date(Date.now() - 2 * 60 * 60 * 1000);

forEachDialect((dialect) => {
  const t = useTestApp(dialect);
  let owner: Member;

  beforeAll(async () => {
    [owner] = (await signupMembers(t.app, 1)) as [Member];
  });

  const galleryDir = () => path.join(t.config.uploadsDir, 'gallery');
  const incomingDir = () => path.join(t.config.uploadsDir, '.incoming');

  async function writeFile(dir: string, name: string, old: boolean): Promise<string> {
    await fs.mkdir(dir, { recursive: true });
    const file = path.join(dir, name);
    await fs.writeFile(file, 'stray bytes');
    if (old) await fs.utimes(file, TWO_HOURS_AGO(), TWO_HOURS_AGO());
    return file;
  }

  it('removes an unreferenced file older than an hour and keeps referenced and fresh ones', async () => {
    const image = await uploadImage(t.app, owner);
    const displayFile = diskPath(t.config.uploadsDir, image.filename);
    const thumbFile = diskPath(t.config.uploadsDir, image.thumbnailUrl);
    // The referenced files are old too: age alone never removes them.
    await fs.utimes(displayFile, TWO_HOURS_AGO(), TWO_HOURS_AGO());
    await fs.utimes(thumbFile, TWO_HOURS_AGO(), TWO_HOURS_AGO());
    const oldStray = await writeFile(galleryDir(), 'deadbeef.webp', true);
    const oldPartial = await writeFile(galleryDir(), 'cafe.webp.0a1b2c.partial', true);
    const oldIncoming = await writeFile(incomingDir(), 'abc.upload', true);
    const freshStray = await writeFile(galleryDir(), 'fresh.webp', false);
    const freshIncoming = await writeFile(incomingDir(), 'def.upload', false);

    const removed = await sweepStrayFiles({ db: t.app.db, uploadsDir: t.config.uploadsDir });

    expect(removed).toBe(3);
    const remaining = [
      ...(await filesUnder(galleryDir())).map((name) => path.join(galleryDir(), name)),
      ...(await filesUnder(incomingDir())).map((name) => path.join(incomingDir(), name)),
    ].sort();
    expect(remaining).toEqual([displayFile, thumbFile, freshStray, freshIncoming].sort());
    for (const gone of [oldStray, oldPartial, oldIncoming]) expect(remaining).not.toContain(gone);
  });

  it('answers 0 and removes nothing when every old file is referenced', async () => {
    const before = await filesUnder(galleryDir());

    expect(await sweepStrayFiles({ db: t.app.db, uploadsDir: t.config.uploadsDir })).toBe(0);
    expect(await filesUnder(galleryDir())).toEqual(before);
  });

  it('treats a file as stray by the clock it is given', async () => {
    const file = await writeFile(galleryDir(), 'later.webp', false);

    const removed = await sweepStrayFiles(
      { db: t.app.db, uploadsDir: t.config.uploadsDir },
      Date.now() + 2 * 60 * 60 * 1000,
    );

    expect(removed).toBeGreaterThanOrEqual(1);
    expect(await filesUnder(galleryDir())).not.toContain(path.basename(file));
    // Referenced files stay whatever the clock says.
    expect((await filesUnder(galleryDir())).length).toBeGreaterThanOrEqual(2);
  });

  it('copes with missing upload directories', async () => {
    expect(
      await sweepStrayFiles({
        db: t.app.db,
        uploadsDir: path.join(t.config.uploadsDir, 'nowhere'),
      }),
    ).toBe(0);
  });
});
