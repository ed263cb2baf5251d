import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { AppError, Invalid } from '../errors.ts';
import { fingerprint } from './fingerprint.ts';
import { storageFailure } from './storageErrors.ts';
import { textProblem } from './text.ts';

const UNREADABLE_FORM = 'That form could not be read. Send it again as multipart/form-data.';

export interface StreamedForm {
  fields: Record<string, string>;
  /** A temporary file holding the upload, or undefined when none came; the caller removes it. */
  filePath: string | undefined;
  /**
   * sha256 of the fields and the file's bytes, whatever the boundary or the order of the fields:
   * what tells a form sent again from another (docs/decisions.md "Idempotency keys").
   */
  digest: string;
}

/** Passes the bytes through while hashing them. */
function hashing(hash: ReturnType<typeof createHash>): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      callback(null, chunk);
    },
  });
}

/**
 * The form's fault or ours: the parser's own errors (no boundary, truncated or malformed body)
 * carry no status and are the client's mistake; limit errors keep their 413; a file call that
 * failed on this node's disk is ours (507 or 500, logged), never "send it again".
 */
function formFailure(error: unknown): unknown {
  if (error instanceof AppError || (error as { statusCode?: unknown }).statusCode !== undefined)
    return error;
  return (
    storageFailure(error, 'could not write an upload to the incoming folder') ??
    new Invalid(UNREADABLE_FORM)
  );
}

/**
 * Streams the one file of a multipart form to a temporary file, so a large upload never sits in
 * memory; the plugin's size limit ends the stream with a 413 and the partial file is removed.
 */
export async function streamForm(
  request: FastifyRequest,
  fileField: string,
  tempDir: string,
): Promise<StreamedForm> {
  const fields: Record<string, string> = {};
  let filePath: string | undefined;
  const fileHash = createHash('sha256');
  try {
    await fs.mkdir(tempDir, { recursive: true });
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== fileField || filePath) {
          part.file.resume();
          throw new Invalid(`Unexpected file field "${part.fieldname}".`);
        }
        filePath = path.join(tempDir, `${randomBytes(12).toString('hex')}.upload`);
        await pipeline(part.file, hashing(fileHash), createWriteStream(filePath));
      } else {
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
      }
    }
  } catch (error) {
    // The sweep takes whatever cannot be removed now; the answer is about the first failure.
    if (filePath) await fs.rm(filePath, { force: true }).catch(() => undefined);
    throw formFailure(error);
  }
  const problem = textProblem(fields);
  if (problem) {
    if (filePath) await fs.rm(filePath, { force: true });
    throw new Invalid(problem);
  }
  if (filePath && (await fs.stat(filePath)).size === 0) {
    await fs.rm(filePath, { force: true });
    filePath = undefined;
  }
  const digest = fingerprint([fields, filePath ? fileHash.digest('hex') : null]);
  return { fields, filePath, digest };
}
