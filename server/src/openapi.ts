/**
 * Writes the OpenAPI document of the HTTP API (from the routes' zod schemas) to docs/openapi.json.
 * `npm run build` runs it; `node build/openapi.mjs --check` fails when the file is out of date.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';

export const OPENAPI_FILE = 'docs/openapi.json';

/** The document as the app describes itself, on a throwaway data folder. */
async function openApiDocument(): Promise<unknown> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'orbit-openapi-'));
  try {
    const app = await buildApp(
      loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, false),
    );
    try {
      await app.ready();
      return app.swagger();
    } finally {
      await app.close();
    }
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

/** The file's text: JSON as Prettier writes it, so `npm run lint` accepts the generated file. */
export async function openApiText(): Promise<string> {
  const prettier = await import('prettier');
  const options = await prettier.resolveConfig(path.resolve(OPENAPI_FILE));
  return prettier.format(JSON.stringify(await openApiDocument()), { ...options, parser: 'json' });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const target = path.resolve(OPENAPI_FILE);
  const text = await openApiText();
  if (process.argv.includes('--check')) {
    const current = await fs.readFile(target, 'utf8').catch(() => '');
    if (current !== text) {
      console.error(`${OPENAPI_FILE} is out of date: run npm run build and commit it.`);
      process.exit(1);
    }
  } else {
    await fs.writeFile(target, text);
    console.log(`Wrote ${OPENAPI_FILE}.`);
  }
}
