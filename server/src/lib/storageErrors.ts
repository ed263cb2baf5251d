import { AppError, InsufficientStorage, ServerFailure } from '../errors.ts';

const STORAGE_FULL = 'Orbit’s storage is full. Try again later.';
const SAVE_FAILED = 'Orbit couldn’t save the picture. Try again later.';

/** The disk or the quota is full: 507. */
const FULL = new Set(['ENOSPC', 'EDQUOT']);
/**
 * A folder Orbit cannot write: no permission, a read-only file system, too many open files, a
 * folder that is not one (a file in its place, a path that went away). 500.
 */
const UNWRITABLE = new Set([
  'EPERM',
  'EACCES',
  'EROFS',
  'EMFILE',
  'ENFILE',
  'ENOTDIR',
  'EEXIST',
  'EISDIR',
  'ENOENT',
  'ELOOP',
  'EIO',
]);

/** The code of an error the operating system raised for a file call, if it is one. */
function systemCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, syscall } = error as { code?: unknown; syscall?: unknown };
  return typeof code === 'string' && typeof syscall === 'string' ? code : undefined;
}

/**
 * The answer for a failure to write a picture or a request body on this node's disk: 507 when it
 * is full, 500 when a folder cannot be written, both logged at error with the code
 * (docs/product.md "Errors"). Undefined for anything else (a bucket's error, say): the caller
 * throws it as it is.
 */
export function storageFailure(error: unknown, what: string): AppError | undefined {
  if (error instanceof AppError) return undefined;
  const code = systemCode(error);
  if (code === undefined) return undefined;
  if (FULL.has(code))
    return new InsufficientStorage(STORAGE_FULL, error, `${what}: no space left (${code})`);
  if (UNWRITABLE.has(code))
    return new ServerFailure(SAVE_FAILED, error, `${what}: cannot write (${code})`);
  return undefined;
}

/** Runs a write of pictures, answering its storage failures as storageFailure says. */
export async function storing<T>(what: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    throw storageFailure(error, what) ?? error;
  }
}
