import type * as z from 'zod/v4/core';
import type { EndpointPath } from '../endpoints.paths.ts';
import { OkResponse } from '../http.ts';

export type { EndpointPath };

export interface Endpoint extends EndpointPath {
  readonly params?: z.$ZodType;
  readonly query?: z.$ZodType;
  /** The JSON body's schema. */
  readonly body?: z.$ZodType;
  /** A multipart/form-data body: `'only'`, or `'also'` beside the JSON body. */
  readonly multipart?: 'only' | 'also';
  /** The answer: its schema, `'none'` for an empty 204, `'stream'` for a download. */
  readonly answer: z.$ZodType | 'none' | 'stream';
  /** The success statuses the answer comes with; 200 unless named (204 for `'none'`). */
  readonly status?: readonly number[];
  /**
   * How the app reads the answer when other servers may spell it differently (readers.ts);
   * without one, the answer schema parses it.
   */
  readonly read?: (body: unknown) => unknown;
  /** The OpenAPI summary, for a call the schemas do not describe (multipart, a download). */
  readonly summary?: string;
  /** A download's content type and what it is, for the OpenAPI document. */
  readonly contentType?: string;
  readonly description?: string;
}

/**
 * An entry of the table: a path of `endpoints.paths.ts` with its shapes. Each call is marked pure
 * where an entry is made, so an entry no page uses is left out of the page's code.
 */
export function endpoint<
  const P extends EndpointPath,
  const S extends Omit<Endpoint, keyof EndpointPath>,
>(path: P, shapes: S): P & S {
  return { ...path, ...shapes };
}

/** The reader of an answer the app has no use for: that the call succeeded is all it needs. */
export const ignoreAnswer = (): null => null;

/** The answer of a write with nothing to tell: `{ok: true}` here, whatever another server sends. */
export const ACKNOWLEDGED = { answer: OkResponse, read: ignoreAnswer };
