import type { FastifyRequest } from 'fastify';
import { Invalid } from '../errors.ts';

export interface ParsedForm {
  fields: Record<string, string>;
  file: Buffer | undefined;
}

/** Reads a multipart form with at most one file, under the field name given; limits come from the plugin. */
export async function readForm(request: FastifyRequest, fileField: string): Promise<ParsedForm> {
  const fields: Record<string, string> = {};
  let file: Buffer | undefined;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      const data = await part.toBuffer();
      if (part.fieldname !== fileField) throw new Invalid(`Unexpected file field "${part.fieldname}".`);
      if (data.length > 0) file = data;
    } else {
      fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
    }
  }
  return { fields, file };
}
