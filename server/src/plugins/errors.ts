import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { AppError } from '../errors.ts';

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

/** Our own schema messages are already the member's words; a wrong type names the field instead. */
function zodMessage(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid request.';
  if (issue.code === 'invalid_type' && issue.path.length > 0) {
    const expected =
      issue.expected === 'array'
        ? 'a list'
        : `${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`;
    return `${issue.path.join('.')} must be ${expected}.`;
  }
  return issue.message;
}

/** One error body, `{error}`, with short human messages; a 5xx never shows internals. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | ZodError, request, reply) => {
    if (error instanceof ZodError) return reply.status(400).send({ error: zodMessage(error) });
    if (error instanceof AppError) {
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
