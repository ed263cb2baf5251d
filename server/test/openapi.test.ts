import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as paths from '../../src/contracts/endpoints.paths.ts';
import { OPENAPI_FILE, openApiText } from '../src/openapi.ts';
import { buildTestApp } from './helpers.ts';

describe('API documentation', () => {
  it('keeps docs/openapi.json equal to what the routes describe (npm run build writes it)', async () => {
    const committed = await fs.readFile(path.resolve(OPENAPI_FILE), 'utf8');

    expect(committed).toBe(await openApiText());
  });

  it('documents member routes with their contract, aliases left out', async () => {
    const document = JSON.parse(await openApiText()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const image = (
      document.paths['/api/gallery']?.get?.responses['200'] as {
        content: { 'application/json': { schema: { properties: { images: { items: unknown } } } } };
      }
    ).content['application/json'].schema.properties.images.items as {
      properties: Record<string, unknown>;
    };

    expect(Object.keys(image.properties)).toContain('url');
    expect(Object.keys(image.properties)).not.toContain('filename');
    expect(Object.keys(image.properties)).not.toContain('_id');
  });

  it('documents the Idempotency-Key on exactly the writes the endpoint table marks outbox', async () => {
    const document = JSON.parse(await openApiText()) as {
      paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>;
    };
    const documented = Object.entries(document.paths).flatMap(([url, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) =>
          operation.parameters?.some(
            (parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key',
          ),
        )
        .map(([method]) => `${method.toUpperCase()} ${url.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    const marked = Object.values(paths)
      .filter((entry) => 'outbox' in entry)
      .map((entry) => `${entry.method} ${entry.path}`);

    expect(documented.sort()).toEqual(marked.sort());
    expect(marked.length).toBeGreaterThan(0);
  });

  it('serves /api/docs in development', async () => {
    const t = await buildTestApp({ dialect: 'sqlite', env: { NODE_ENV: 'development' } });
    try {
      const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
      const json = await t.app.inject({ method: 'GET', url: '/api/docs/json' });

      expect([200, 302]).toContain(page.statusCode);
      expect(json.statusCode).toBe(200);
      expect(json.json<{ openapi: string }>().openapi).toBe('3.1.0');
    } finally {
      await t.close();
    }
  });

  it('answers 404 at /api/docs in production', async () => {
    const t = await buildTestApp({ dialect: 'sqlite', env: { NODE_ENV: 'production' } });
    try {
      const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
      const json = await t.app.inject({ method: 'GET', url: '/api/docs/json' });

      expect(page.statusCode).toBe(404);
      expect(json.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
