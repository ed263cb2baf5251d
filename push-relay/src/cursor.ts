import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from './files.ts';

export const CURSOR_FILE = 'relay-cursor.json';

const CursorSchema = z.object({ lastEventId: z.number().int().nonnegative() });

/** How many settled ids the relay remembers, to skip an event it sees twice. */
const REMEMBERED = 10_000;

/**
 * Which events are handled. Ids increase but have gaps (not every notification is a push), and
 * events finish out of order, so the cursor is the highest id with every known event at or below
 * it settled: after a restart, catch-up from there misses nothing.
 */
export class EventLedger {
  #cursor: number | null;
  readonly #pending = new Set<number>();
  /** Settled ids above the cursor, held back by a pending lower one. */
  readonly #settledAbove = new Set<number>();
  /** Recently settled ids, oldest first. */
  readonly #recent = new Set<number>();

  constructor(cursor: number | null) {
    this.#cursor = cursor;
  }

  get cursor(): number | null {
    return this.#cursor;
  }

  /**
   * Whether an event is under way or was settled lately (a repeat from catch-up or a reconnect).
   * An id at or below the cursor alone does not count: ids can commit out of order, and a late
   * one is still new.
   */
  has(id: number): boolean {
    return this.#pending.has(id) || this.#recent.has(id);
  }

  begin(id: number): void {
    this.#pending.add(id);
  }

  /** Marks an event settled; answers whether the cursor moved. */
  settle(id: number): boolean {
    if (!this.#pending.delete(id)) return false;
    this.#remember(id);
    if (this.#cursor !== null && id <= this.#cursor) return false;
    this.#settledAbove.add(id);
    const lowestPending = Math.min(...this.#pending);
    let next = this.#cursor;
    for (const done of this.#settledAbove) {
      if (done < lowestPending && (next === null || done > next)) next = done;
    }
    if (next === null || next === this.#cursor) return false;
    this.reset(next);
    return true;
  }

  /** Moves the cursor (first start: to the server's newest id). */
  reset(cursor: number): void {
    this.#cursor = cursor;
    for (const done of this.#settledAbove) if (done <= cursor) this.#settledAbove.delete(done);
  }

  /** The server's ids went back (a new database): everything remembered is void. */
  startOver(cursor: number): void {
    this.#recent.clear();
    this.#settledAbove.clear();
    this.#cursor = cursor;
  }

  #remember(id: number): void {
    this.#recent.delete(id);
    this.#recent.add(id);
    if (this.#recent.size > REMEMBERED) {
      const oldest = this.#recent.values().next().value;
      if (oldest !== undefined) this.#recent.delete(oldest);
    }
  }
}

/** The last settled event id, kept in the data directory across restarts. */
export class CursorFile {
  readonly file: string;
  #written: number | null = null;
  #wanted: number | null = null;
  #writing: Promise<void> | undefined;

  constructor(dataDir: string) {
    this.file = path.join(dataDir, CURSOR_FILE);
  }

  async read(): Promise<number | null> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
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
    if (!parsed?.success) throw new Error(`${this.file} is not a relay cursor; fix or remove it`);
    this.#written = parsed.data.lastEventId;
    return this.#written;
  }

  /** Saves the newest value; writes never overlap, and a burst of changes costs one write. */
  save(cursor: number): Promise<void> {
    this.#wanted = cursor;
    this.#writing ??= this.#drain().finally(() => {
      this.#writing = undefined;
    });
    return this.#writing;
  }

  /** Resolves once everything asked for is on disk. */
  async flush(): Promise<void> {
    while (this.#writing) await this.#writing;
  }

  async #drain(): Promise<void> {
    while (this.#wanted !== null && this.#wanted !== this.#written) {
      const value = this.#wanted;
      await fs.mkdir(path.dirname(this.file), { recursive: true });
      await writeFileAtomic(this.file, `${JSON.stringify({ lastEventId: value })}\n`);
      this.#written = value;
    }
  }
}
