import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import fp from 'fastify-plugin';
import { z } from '../../../src/contracts/zod.ts';
import { isDatabaseBusy } from '../db/index.ts';
import { AppError, BUSY, Unavailable } from '../errors.ts';

/**
 * zod/mini, which the contracts use, words the problems a contract leaves unworded as "Invalid
 * input"; the answers word them as zod's full build does, in English.
 */
z.config(z.locales.en());

export const INTERNAL_ERROR = 'Something went wrong on our side. Please try again.';

const FASTIFY_MESSAGES: Record<string, string> = {
  FST_REQ_FILE_TOO_LARGE: 'That file is too large (max 20 MB).',
  FST_ERR_CTP_BODY_TOO_LARGE: 'That request is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty.',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'Send this form as multipart/form-data.',
  FST_FILES_LIMIT: 'Send one file at a time.',
  FST_PARTS_LIMIT: 'That form has too many fields.',
  FST_FIELDS_LIMIT: 'That form has too many fields.',
};

interface Problem {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  expected?: unknown;
}

/** Our own schema messages are already the member's words; a wrong type names the field instead. */
function problemMessage(issue: Problem | undefined): string {
  if (!issue) return 'Invalid request.';
  if (issue.code === 'invalid_type' && issue.path.length > 0) {
    const type = String(issue.expected);
    const expected = type === 'array' ? 'a list' : `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
    return `${issue.path.map(String).join('.')} must be ${expected}.`;
  }
  return issue.message;
}

const zodMessage = (error: z.core.$ZodError): string => problemMessage(error.issues[0]);

/** A route schema's refusal (the zod type provider's validator) in the same words as a parse. */
function validationMessage(error: Parameters<typeof hasZodFastifySchemaValidationErrors>[0]) {
  if (!hasZodFastifySchemaValidationErrors(error)) return undefined;
  const first = error.validation[0];
  if (!first) return 'Invalid request.';
  return problemMessage({
    code: first.keyword,
    path: first.instancePath.split('/').filter(Boolean),
    message: first.message ?? 'Invalid request.',
    expected: (first.params as { expected?: unknown }).expected,
  });
}

/** When to try again after the database was busy: its connections free up within moments. */
const DATABASE_BUSY_RETRY_SECONDS = 2;

/** One error body, `{error}`, with short human messages; a 5xx never shows internals. */
function registerErrorHandler(app: FastifyInstance): void {
  // Plugins that refuse a request themselves answer plain text (CORS: "Invalid Preflight
  // Request"); every refusal reads as `{error}` (docs/product.md "Errors").
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode < 400 || typeof payload !== 'string') return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('text/plain')) return payload;
    reply.type('application/json; charset=utf-8');
    return JSON.stringify({ error: payload });
  });
  app.setErrorHandler((thrown: FastifyError | AppError | z.core.$ZodError, request, reply) => {
    const error = isDatabaseBusy(thrown)
      ? new Unavailable(BUSY, {
          retryAfterSeconds: DATABASE_BUSY_RETRY_SECONDS,
          cause: thrown,
          log: { level: 'warn', reason: 'database busy; answered 503' },
        })
      : thrown;
    if (error instanceof z.core.$ZodError)
      return reply.status(400).send({ error: zodMessage(error) });
    const invalid = validationMessage(error);
    if (invalid !== undefined) return reply.status(400).send({ error: invalid });
    if (error instanceof AppError) {
      if (error.log) {
        const { cause } = error;
        const code = (cause as { code?: unknown } | undefined)?.code;
        request.log[error.log.level](
          { err: cause ?? error, ...(typeof code === 'string' ? { code } : {}) },
          error.log.reason,
        );
      }
      if (error.retryAfterSeconds !== undefined)
        void reply.header('Retry-After', String(error.retryAfterSeconds));
      return reply.status(error.statusCode).send({ error: error.message });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send({ error: INTERNAL_ERROR });
    }
    const message =
      FASTIFY_MESSAGES[error.code] ??
      (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
        ? 'The request body is not valid JSON.'
        : error.message);
    return reply.status(status).send({ error: message });
  });
}

/** Errors Fastify raises before routing (a malformed or over-long URL) get the same `{error}` body. */
export function frameworkErrors(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const status = error.statusCode ?? 400;
  const message =
    status >= 500
      ? INTERNAL_ERROR
      : status === 414
        ? 'That address is too long.'
        : 'That address is not valid.';
  void reply.status(status).send({ error: message });
}

/** The one error body for every route and every refusal. */
export const errorsPlugin = fp(
  (app, _options, done) => {
    registerErrorHandler(app);
    done();
  },
  { name: 'orbit-errors' },
);
