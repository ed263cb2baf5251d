/**
 * The layer rules of docs/architecture.md "Layers and what may import what" are lint rules in
 * eslint.config.js; these tests break each one in a file's place and expect ESLint to say so, so
 * a rule cannot stop working (a renamed folder, a plugin upgrade) without a failing test.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.dirname(fileURLToPath(import.meta.url));
const eslint = new ESLint({ cwd: root });

/** What `rule` says about `code` linted as if it were the file at `file`. */
async function errorsOf(rule: string, file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === rule)
    .map((message) => message.message);
}

const PATHS = 'import-x/no-restricted-paths';

describe('the layer rules in eslint.config.js', () => {
  it.each([
    {
      rule: 'src/lib never imports a feature',
      file: 'src/lib/storage.ts',
      code: "export { useSession } from '../features/auth/store.ts';\n",
      error: 'src/lib sits below the UI: let the feature register with lib instead.',
    },
    {
      rule: 'src/lib never imports the app',
      file: 'src/lib/storage.ts',
      code: "export { AppRoutes } from '../app/routes.tsx';\n",
      error: 'src/lib sits below the UI: let the feature register with lib instead.',
    },
    {
      rule: 'a feature never imports the app',
      file: 'src/features/offline/update.ts',
      code: "export { AppRoutes } from '../../app/routes.tsx';\n",
      error: 'Features never import the app shell: move the shared piece down.',
    },
    {
      rule: 'a server feature imports only the features below it',
      file: 'server/src/features/notifications/service.ts',
      code: "export { authenticate } from '../auth/service.ts';\n",
      error:
        'server/src/features/notifications may import only no other feature (see serverFeatureUses in eslint.config.js and docs/architecture.md).',
    },
    {
      rule: 'a server plugin never imports a feature',
      file: 'server/src/plugins/auth.ts',
      code: "export { signup } from '../features/auth/service.ts';\n",
      error: 'server/src/plugins sit below the features',
    },
    {
      rule: "a server feature never imports another feature's repository",
      file: 'server/src/features/friends/service.ts',
      code: "export { markRequestRead } from '../notifications/repository.ts';\n",
      error: 'A feature calls another through its service, never its repository',
    },
    {
      rule: 'a feature it may use keeps its repository to itself',
      file: 'server/src/features/moderation/service.ts',
      code: "export { insertImage } from '../gallery/repository.ts';\n",
      error: 'A feature calls another through its service, never its repository',
    },
    {
      rule: 'buildApp imports no repository',
      file: 'server/src/app.ts',
      code: "export { insertSession } from './features/auth/repository.ts';\n",
      error: 'buildApp registers plugins and routes; queries belong to their feature.',
    },
    {
      rule: 'server/src/lib never imports a plugin',
      file: 'server/src/lib/text.ts',
      code: "export { authPlugin } from '../plugins/auth.ts';\n",
      error: 'server/src/lib, db and media know no feature, plugin or member.',
    },
  ])('$rule', { timeout: 120_000 }, async ({ file, code, error }) => {
    expect(await errorsOf(PATHS, file, code)).toEqual([expect.stringContaining(error)]);
  });

  it('finds an import cycle on the server', { timeout: 120_000 }, async () => {
    // server/src/features/auth/service.ts imports server/src/errors.ts; this closes the loop.
    const errors = await errorsOf(
      'import-x/no-cycle',
      'server/src/errors.ts',
      "export { authenticate } from './features/auth/service.ts';\n",
    );
    expect(errors).toEqual(['Dependency cycle detected']);
  });

  it.each([
    {
      rule: 'production code never imports a test folder',
      file: 'src/features/gallery/store.ts',
      code: "export { galleryImage } from '../../test/gallery.ts';\n",
      error: 'Production code never imports a test folder',
    },
    {
      rule: 'a file among production files uses no test library',
      file: 'src/features/gallery/pages.ts',
      code: "export { vi } from 'vitest';\n",
      error: 'Only tests use test libraries',
    },
    {
      rule: 'contracts keep the test rule beside their own',
      file: 'src/contracts/gallery.ts',
      code: "export { galleryImage } from '../test/gallery.ts';\n",
      error: 'Production code never imports a test folder',
    },
  ])('$rule', { timeout: 120_000 }, async ({ file, code, error }) => {
    expect(await errorsOf('no-restricted-imports', file, code)).toEqual([
      expect.stringContaining(error),
    ]);
  });

  it('lets an import that follows the layers through', { timeout: 120_000 }, async () => {
    expect(
      await errorsOf(
        PATHS,
        'src/features/offline/update.ts',
        "export { request } from '../../lib/http.ts';\n",
      ),
    ).toEqual([]);
  });
});
