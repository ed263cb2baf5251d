/**
 * The app's one way to call the server (docs/architecture.md "Client state"): an entry of the
 * endpoint table (src/contracts/endpoints.ts) and its input. The address comes from the entry, and
 * the answer is read with the entry's reader or parsed with its answer schema, so every feature
 * holds the canonical shape; one that does not fit fails the call as a bad status would.
 */
import type * as z from 'zod/v4/core';
import { z as zod } from '../contracts/zod.ts';
import type { Endpoint } from '../contracts/endpoints.ts';
import { IDEMPOTENCY_HEADER } from '../contracts/constants.ts';
import { type RequestOptions, request } from './http.ts';

type Schema<E, K extends string> = E extends { readonly [key in K]: infer S extends z.$ZodType }
  ? S
  : never;

/** What a call sends: the path's parameters, the query, a JSON body or a form, and transport options. */
export type ApiInput<E extends Endpoint> = ([Schema<E, 'params'>] extends [never]
  ? { params?: never }
  : { params: z.input<Schema<E, 'params'>> }) &
  ([Schema<E, 'query'>] extends [never]
    ? { query?: never }
    : { query?: z.input<Schema<E, 'query'>> }) &
  ([Schema<E, 'body'>] extends [never] ? { body?: never } : { body?: z.input<Schema<E, 'body'>> }) &
  (E extends { readonly multipart: string } ? { form?: FormData } : { form?: never }) &
  Pick<RequestOptions, 'signal' | 'cache' | 'timeoutMs' | 'noBridge'>;

/** What a call answers: its reader's result, else the answer schema's output; nothing for a 204. */
export type ApiAnswer<E extends Endpoint> = E extends { readonly read: (body: unknown) => infer R }
  ? R
  : E extends { readonly answer: infer A extends z.$ZodType }
    ? z.output<A>
    : undefined;

type Values = Record<string, unknown>;

/** A parameter's text: strings and numbers as they are, anything else (absent) as nothing. */
const textOf = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : '';

/**
 * The entry's address for `input`: each `:name` of the path filled in, then the query in the
 * order its fields are given, without the empty ones (one address per request, as the service
 * worker keeps answers by address).
 */
export function pathOf(entry: Endpoint, input: { params?: unknown; query?: unknown } = {}): string {
  const params = (input.params ?? {}) as Values;
  const path = entry.path.replace(/:(\w+)/g, (_match, name: string) =>
    encodeURIComponent(textOf(params[name])),
  );
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries((input.query ?? {}) as Values)) {
    const text = textOf(value);
    if (text) query.set(key, text);
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/** Calls `entry` with `input` through the transport of src/lib/http.ts and reads the answer. */
export async function api<E extends Endpoint>(
  entry: E,
  ...[input]: Partial<ApiInput<E>> extends ApiInput<E> ? [ApiInput<E>?] : [ApiInput<E>]
): Promise<ApiAnswer<E>> {
  const given = (input ?? {}) as ApiInput<Endpoint> & { body?: unknown; form?: FormData };
  const { signal, cache, timeoutMs, noBridge } = given;
  const body = await request(entry.method, pathOf(entry, given), {
    ...(given.form ? { form: given.form } : given.body !== undefined ? { json: given.body } : {}),
    ...(signal ? { signal } : {}),
    ...(cache ? { cache } : {}),
    ...(timeoutMs ? { timeoutMs } : {}),
    ...(noBridge ? { noBridge } : {}),
    // One key per member action, so a retry of it (the outbox's replay) is done once.
    ...(entry.outbox ? { headers: { [IDEMPOTENCY_HEADER]: crypto.randomUUID() } } : {}),
  });
  return readAnswer(entry, body);
}

/** The answer read with the entry's reader, else parsed with its answer schema. */
function readAnswer<E extends Endpoint>(entry: E, body: unknown): ApiAnswer<E> {
  if (entry.read) return entry.read(body) as ApiAnswer<E>;
  if (typeof entry.answer === 'string') return undefined as ApiAnswer<E>;
  return zod.parse(entry.answer, body) as ApiAnswer<E>;
}
