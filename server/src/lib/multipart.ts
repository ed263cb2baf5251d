import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { AppError, Invalid } from '../errors.ts';
import { textProblem } from './text.ts';

export const UNREADABLE_FORM = 'That form could not be read. Send it again as multipart/form-data.';

export interface ParsedForm {
  fields: Record<string, string>;
  file: Buffer | undefined;
}

/** Reads a multipart form with at most one file, under the field name given; limits come from the plugin. */
export async function readForm(request: FastifyRequest, fileField: string): Promise<ParsedForm> {
  const fields: Record<string, string> = {};
  let file: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (part.fieldname !== fileField)
          throw new Invalid(`Unexpected file field "${part.fieldname}".`);
        if (data.length > 0) file = data;
      } else {
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
      }
    }
  } catch (error) {
    // The parser's own errors (no boundary, truncated or malformed body) carry no status: the body
    // is the client's mistake, not a server failure. Limit errors keep their 413.
    if (error instanceof AppError || (error as { statusCode?: unknown }).statusCode !== undefined)
      throw error;
    throw new Invalid(UNREADABLE_FORM);
  }
  const problem = textProblem(fields);
  if (problem) throw new Invalid(problem);
  return { fields, file };
}

export interface StreamedForm {
  fields: Record<string, string>;
  /** A temporary file holding the upload, or undefined when none came; the caller removes it. */
  filePath: string | undefined;
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
  await fs.mkdir(tempDir, { recursive: true });
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== fileField || filePath) {
          part.file.resume();
          throw new Invalid(`Unexpected file field "${part.fieldname}".`);
        }
        filePath = path.join(tempDir, `${randomBytes(12).toString('hex')}.upload`);
        await pipeline(part.file, createWriteStream(filePath));
      } else {
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
      }
    }
  } catch (error) {
    if (filePath) await fs.rm(filePath, { force: true });
    if (error instanceof AppError || (error as { statusCode?: unknown }).statusCode !== undefined)
      throw error;
    throw new Invalid(UNREADABLE_FORM);
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
  return { fields, filePath };
}
