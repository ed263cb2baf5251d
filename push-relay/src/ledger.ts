import { createHash } from 'node:crypto';
import { RELAY_PROGRESS_LIMITS, type RelayProgress } from '../../src/contracts/push.ts';

/** How many settled ids the relay remembers, to skip an event it sees twice. */
const REMEMBERED = 10_000;

/** A device as progress reports name it: the endpoint is a capability URL, so only a digest travels. */
export function deviceKey(endpoint: string): string {
  return createHash('sha256').update(endpoint).digest('base64url').slice(0, 22);
}

/**
 * Which events are handled. Ids increase but have gaps (not every notification is a push), and
 * events finish out of order, so the cursor is the highest id with every known event at or below
 * it settled: catch-up from there misses nothing. Above the cursor it knows which events are
 * settled and which devices already have their push, so that the next holder of the lease repeats
 * none of it.
 */
export class EventLedger {
  #cursor: number | null;
  readonly #pending = new Set<number>();
  /** Events whose handling stopped with the lease: not settled, so they hold the cursor back. */
  readonly #abandoned = new Set<number>();
  /** Settled ids above the cursor, held back by a lower unsettled one. */
  readonly #settledAbove = new Set<number>();
  /**
   * Ids an earlier holder of the lease settled, not met again yet. The cursor does not pass them
   * until they are: the events between the cursor and them are not known here until catch-up
   * brings them, and passing them would lose those.
   */
  readonly #adopted = new Set<number>();
  /** Recently settled ids, oldest first. */
  readonly #recent = new Set<number>();
  /** Devices that have their push, per event not settled yet. */
  readonly #devicesDone = new Map<number, Set<string>>();

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

  /** An event `has` knows came again: one an earlier holder settled may now be passed. */
  confirm(id: number): void {
    if (!this.#adopted.delete(id)) return;
    this.#settledAbove.add(id);
    this.#advance();
  }

  begin(id: number): void {
    this.#abandoned.delete(id);
    this.#pending.add(id);
  }

  /** One device of an event is done with (pushed, gone or given up on). */
  deviceDone(id: number, device: string): void {
    const done = this.#devicesDone.get(id) ?? new Set<string>();
    done.add(device);
    this.#devicesDone.set(id, done);
  }

  isDeviceDone(id: number, device: string): boolean {
    return this.#devicesDone.get(id)?.has(device) ?? false;
  }

  /** Handling stopped before the event settled (the lease is gone): it is to be handled again. */
  abandon(id: number): void {
    if (this.#pending.delete(id)) this.#abandoned.add(id);
  }

  /** Marks an event settled; answers whether the cursor moved. */
  settle(id: number): boolean {
    if (!this.#pending.delete(id)) return false;
    this.#devicesDone.delete(id);
    this.#remember(id);
    if (this.#cursor !== null && id <= this.#cursor) return false;
    this.#settledAbove.add(id);
    return this.#advance();
  }

  /** Moves the cursor (first start: to the server's newest id). */
  reset(cursor: number): void {
    this.#cursor = cursor;
    for (const done of this.#settledAbove) if (done <= cursor) this.#settledAbove.delete(done);
    for (const done of this.#adopted) if (done <= cursor) this.#adopted.delete(done);
    for (const id of this.#abandoned) if (id <= cursor) this.#abandoned.delete(id);
    for (const id of this.#devicesDone.keys()) if (id <= cursor) this.#devicesDone.delete(id);
  }

  /** The server's ids went back (a new database): everything remembered is void. */
  startOver(cursor: number): void {
    this.#recent.clear();
    this.#settledAbove.clear();
    this.#adopted.clear();
    this.#abandoned.clear();
    this.#devicesDone.clear();
    this.#cursor = cursor;
  }

  /**
   * Takes in what the last holder of the lease reported. Both sides only ever say what is done,
   * so the union is true: after a takeover the reported state is newer, after this relay's own
   * lease lapsed and came back its memory may be.
   */
  adopt(progress: RelayProgress): void {
    if (this.#cursor === null || progress.cursor > this.#cursor) this.reset(progress.cursor);
    const cursor = this.#cursor ?? progress.cursor;
    for (const id of progress.settled) {
      if (id <= cursor || this.#pending.has(id) || this.#settledAbove.has(id)) continue;
      this.#abandoned.delete(id);
      this.#devicesDone.delete(id);
      this.#adopted.add(id);
      this.#remember(id);
    }
    for (const { id, devices } of progress.sent) {
      if (id <= cursor || this.#adopted.has(id) || this.#settledAbove.has(id)) continue;
      for (const device of devices) this.deviceDone(id, device);
    }
  }

  /**
   * What a progress report says: null before the cursor is known. It stays within the report
   * limits; when more is settled than fits, the highest ids are left out (after a takeover they
   * could be pushed again).
   */
  progress(): RelayProgress | null {
    const cursor = this.#cursor;
    if (cursor === null) return null;
    const settled = [...this.#settledAbove, ...this.#adopted]
      .filter((id) => id > cursor)
      .sort((a, b) => a - b)
      .slice(0, RELAY_PROGRESS_LIMITS.settled);
    const sent = [...this.#devicesDone]
      .filter(([id, devices]) => id > cursor && devices.size > 0)
      .sort(([a], [b]) => a - b)
      .slice(0, RELAY_PROGRESS_LIMITS.sent)
      .map(([id, devices]) => ({
        id,
        devices: [...devices].slice(0, RELAY_PROGRESS_LIMITS.devices),
      }));
    let bytes = JSON.stringify({ cursor, settled: [], sent: [] }).length;
    bytes += settled.reduce((sum, id) => sum + String(id).length + 1, 0);
    bytes += sent.reduce((sum, entry) => sum + JSON.stringify(entry).length + 1, 0);
    while (bytes > RELAY_PROGRESS_LIMITS.bytes) {
      const lastSettled = settled.at(-1) ?? -1;
      const lastSent = sent.at(-1);
      if (lastSent && lastSent.id > lastSettled) bytes -= JSON.stringify(sent.pop()).length + 1;
      else bytes -= String(settled.pop()).length + 1;
    }
    return { cursor, settled, sent };
  }

  /** Moves the cursor over settled ids below the lowest event not settled; answers whether it moved. */
  #advance(): boolean {
    const lowestOpen = Math.min(...this.#pending, ...this.#abandoned);
    let next = this.#cursor;
    for (const done of this.#settledAbove) {
      if (done < lowestOpen && (next === null || done > next)) next = done;
    }
    if (next === null || next === this.#cursor) return false;
    this.reset(next);
    return true;
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
