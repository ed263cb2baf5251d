/**
 * Room on the device for uploads kept offline (docs/decisions.md "The offline outbox"): a file
 * picked offline waits in IndexedDB until the network is back, and the browser refuses to keep
 * more than the origin's quota. The member is told before that happens, and the files that would
 * not fit are not handed to the outbox.
 */

/** Room kept free for everything else the app keeps (saved copies, the outbox's other items). */
const SPACE_MARGIN_BYTES = 16 * 1024 * 1024;
/** What the outbox keeps beside a file: the form's other fields and boundaries, the request's record. */
export const FORM_OVERHEAD_BYTES = 4 * 1024;

/** The status line's words when some picked files cannot be kept. */
export const NO_ROOM =
  "Not enough space on this device to keep these photos until you're back online.";
/** A refused file's words, as `Failed {file}: {message}`. */
export const noRoomFor = (name: string): string =>
  `Failed ${name}: Not enough space on this device to keep it until you're back online.`;

export interface SpaceEstimate {
  /** Bytes this origin may keep. */
  quota: number;
  /** Bytes it keeps now. */
  usage: number;
}

/** The margin for a quota: 16 MB, or a twentieth of the quota where that is more. */
export const marginOf = (quota: number): number => Math.max(SPACE_MARGIN_BYTES, quota / 20);

/**
 * Which of `sizes` (bytes, in the order picked) fit on the device, taken in that order: each one
 * fits while what is kept, what is still on its way to being kept (`pending` bytes) and the files
 * before it leave the margin free. Answers one flag per size.
 */
export function fitOnDevice(
  sizes: readonly number[],
  estimate: SpaceEstimate,
  pending = 0,
): boolean[] {
  let free = estimate.quota - estimate.usage - marginOf(estimate.quota) - pending;
  return sizes.map((size) => {
    const need = size + FORM_OVERHEAD_BYTES;
    if (need > free) return false;
    free -= need;
    return true;
  });
}

/** The origin's quota and usage, or null where the browser does not tell. */
export async function estimateSpace(): Promise<SpaceEstimate | null> {
  try {
    const estimate = await navigator.storage?.estimate?.();
    if (!estimate || typeof estimate.quota !== 'number' || typeof estimate.usage !== 'number')
      return null;
    return { quota: estimate.quota, usage: estimate.usage };
  } catch {
    return null;
  }
}

/** `3.2 MB`, `820 kB`: a size as the member reads it. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1000 * 1000 * 1000) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1000 * 1000) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1000))} kB`;
}
