import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { RelayProgress } from '../../src/contracts/push.ts';
import type { EventLedger } from './ledger.ts';
import type { Logger } from './log.ts';

/** Where relays kept their position before the server kept it with the lease. */
export const LEGACY_CURSOR_FILE = 'relay-cursor.json';

const CursorSchema = z.object({ lastEventId: z.number().int().nonnegative() });

/** The position an upgraded install left in its data directory, until the server keeps one. */
export interface LegacyCursor {
  readonly file: string;
  readonly position: number;
  /** Removes the file: the server keeps the position from here on. */
  retire(): Promise<void>;
}

/**
 * The upgrade step for an install from before the lease: read once at start, used only while no
 * relay has reported to the server, and removed as soon as the server keeps a position, so it is
 * never read again. Null when there is no such file.
 */
export async function readLegacyCursor(
  dataDir: string,
  log?: Logger,
): Promise<LegacyCursor | null> {
  const file = path.join(dataDir, LEGACY_CURSOR_FILE);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  let parsed;
  try {
    parsed = CursorSchema.safeParse(JSON.parse(text));
  } catch {
    parsed = undefined;
  }
  if (!parsed?.success) throw new Error(`${file} is not a relay cursor; fix or remove it`);
  let retiring: Promise<void> | undefined;
  return {
    file,
    position: parsed.data.lastEventId,
    retire: () =>
      (retiring ??= fs.rm(file, { force: true }).then(
        () =>
          log?.info({ file }, 'the server keeps the push position; removed the old cursor file'),
        (error: unknown) => log?.warn({ err: error, file }, 'could not remove the old cursor file'),
      )),
  };
}

/**
 * Where a new holder of the lease goes on from: the progress the server keeps (then the old file
 * is done with), else, before any relay reported, the old file's position.
 */
export function goOnFrom(
  ledger: EventLedger,
  kept: RelayProgress | null,
  legacy: LegacyCursor | null,
  log: Logger,
): void {
  if (kept) {
    ledger.adopt(kept);
    void legacy?.retire();
  } else if (ledger.cursor === null && legacy) {
    log.info(
      { cursor: legacy.position, file: legacy.file },
      'going on from the old cursor file until the server keeps the position',
    );
    ledger.reset(legacy.position);
  }
}
