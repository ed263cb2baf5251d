import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { IDEMPOTENCY_HEADER } from '../../../src/contracts/constants.ts';
import { ErrorBody } from '../../../src/contracts/http.ts';

export const API_DOCS_PATH = '/api/docs';

/**
 * The header the outbox writes take (docs/decisions.md "Idempotency keys"), for the document
 * only: the idempotency plugin reads and checks it, no validator does.
 */
const IDEMPOTENCY_KEY_SCHEMA = {
  type: 'object',
  properties: {
    [IDEMPOTENCY_HEADER]: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      description:
        'Optional, 1 to 255 visible characters, kept 24 hours per member. The same call sent again with the key gets the first answer and changes nothing; another call with it is a 422, and one while the first still runs a 409.',
    },
  },
};

/**
 * OpenAPI from the routes' zod schemas. The document is always built (`npm run build` writes it to
 * docs/openapi.json); the browsable page at /api/docs is served in development only.
 */
const isDocumented = (url: string) => url.startsWith('/api/') && !url.startsWith(API_DOCS_PATH);

async function registerApiDocs(app: FastifyInstance) {
  // Every failure of an API route is `{error}` (docs/product.md "Errors"), said once here.
  app.addHook('onRoute', (route) => {
    if (!isDocumented(route.url)) return;
    route.schema = {
      ...route.schema,
      response: { '4xx': ErrorBody, '5xx': ErrorBody, ...(route.schema?.response ?? {}) },
    };
  });
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Orbit API',
        version: '1.0.0',
        description:
          'The HTTP API of Orbit. Errors answer `{error}` with the status; a member route answers 401 without a session.',
      },
    },
    // Only the API: the app shell, pictures, health and metrics are not part of it.
    transform: (document) => {
      if (!isDocumented(document.url)) return { schema: { hide: true }, url: document.url };
      const described = jsonSchemaTransform(document);
      if (!document.route.config?.outbox) return described;
      return { ...described, schema: { ...described.schema, headers: IDEMPOTENCY_KEY_SCHEMA } };
    },
  });
  if (app.config.env === 'development') {
    await app.register(fastifySwaggerUi, { routePrefix: API_DOCS_PATH });
  }
}

export const docsPlugin = fp(registerApiDocs, {
  name: 'orbit-docs',
  dependencies: ['orbit-database'],
});
