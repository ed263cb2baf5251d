import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type * as z from 'zod/v4/core';
import type { Endpoint } from '../../../src/contracts/endpoints.ts';
import { z as zod } from '../../../src/contracts/zod.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The entry is marked `outbox`: a write the installed app may send again with the same
     * `Idempotency-Key` (docs/decisions.md "Idempotency keys"); `'form'` when its body is a
     * multipart form the handler reads itself. The idempotency plugin acts on it.
     */
    outbox?: 'body' | 'form';
  }
}

/** A route plugin's app: schemas are zod contracts. */
export type RouteApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

type Part<E, K extends string> = E extends { readonly [key in K]: infer S }
  ? S extends z.$ZodType
    ? S
    : undefined
  : undefined;
type StatusOf<E> = E extends { readonly status: readonly (infer N extends number)[] } ? N : 200;
type ResponseOf<E> = E extends { readonly answer: infer A extends z.$ZodType }
  ? { [S in StatusOf<E>]: A }
  : undefined;

/** The Fastify schema an entry of the endpoint table stands for. */
interface SchemaOf<E extends Endpoint> extends FastifySchema {
  params: Part<E, 'params'>;
  querystring: Part<E, 'query'>;
  body: Part<E, 'body'>;
  response: ResponseOf<E>;
}

/** What a route file still says itself: rate limits, hooks, compression, its handler's config. */
export type RouteOptions = Omit<RouteShorthandOptions, 'schema'>;

export type Handler<E extends Endpoint> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  SchemaOf<E>,
  ZodTypeProvider,
  FastifyBaseLogger
>;

/** The schema Fastify validates, serialises and documents with, built from the entry alone. */
function schemaOf(entry: Endpoint): FastifySchema & Record<string, unknown> {
  const schema: FastifySchema & Record<string, unknown> = {};
  if (entry.summary) schema.summary = entry.summary;
  if (entry.multipart === 'only') schema.consumes = ['multipart/form-data'];
  if (entry.params) schema.params = entry.params;
  if (entry.query) schema.querystring = entry.query;
  if (entry.body) schema.body = entry.body;
  const { answer } = entry;
  if (answer === 'stream') {
    schema.response = {
      200: {
        description: entry.description ?? 'The download',
        content: { [entry.contentType ?? 'application/octet-stream']: { schema: zod.string() } },
      },
    };
  } else if (answer !== 'none') {
    schema.response = Object.fromEntries((entry.status ?? [200]).map((code) => [code, answer]));
  }
  return schema;
}

/**
 * Registers a route from its entry in the endpoint table (src/contracts/endpoints.ts): the method,
 * the path and every schema come from there, so a route file holds only its handler and options.
 */
export function route<E extends Endpoint>(
  app: RouteApp,
  entry: E,
  options: RouteOptions,
  handler: Handler<E>,
): void {
  app.route({
    ...(options as object),
    ...(entry.outbox
      ? { config: { ...options.config, outbox: entry.multipart === 'only' ? 'form' : 'body' } }
      : {}),
    method: entry.method,
    url: entry.path,
    schema: schemaOf(entry),
    handler: handler as RouteHandlerMethod,
  });
}

/**
 * The route's pattern as the endpoint table names it (every route is registered from it), never
 * the raw URL: ids, usernames and queries stay out of metrics and logs.
 */
export function routeOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? 'unmatched';
}
