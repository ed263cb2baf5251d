import type { FastifyRequest } from 'fastify';
import { AppError, Invalid } from '../errors.ts';

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
        if (part.fieldname !== fileField) throw new Invalid(`Unexpected file field "${part.fieldname}".`);
        if (data.length > 0) file = data;
      } else {
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
      }
    }
  } catch (error) {
    // The parser's own errors (no boundary, truncated or malformed body) carry no status: the body
    // is the client's mistake, not a server failure. Limit errors keep their 413.
    if (error instanceof AppError || (error as { statusCode?: unknown }).statusCode !== undefined) throw error;
    throw new Invalid(UNREADABLE_FORM);
  }
  return { fields, file };
}
