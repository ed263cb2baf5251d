import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

/**
 * Which server feature folders each one may import: the folders form a graph with no cycle, so
 * a feature's code can be read, tested and moved with only the folders below it. Shared pieces
 * (user rows, search keys) live outside features/, in server/src/members.
 */
const serverFeatureUses = {
  notifications: [],
  auth: ['notifications'],
  friends: ['auth', 'notifications'],
  gallery: ['auth', 'notifications'],
  push: ['auth'],
  users: ['auth'],
  account: ['auth', 'notifications'],
  blocks: ['notifications'],
  moderation: ['auth', 'gallery', 'notifications', 'push'],
};

/** Throws at load time if the table above itself has a cycle, naming it. */
function assertAcyclic(graph) {
  const done = new Set();
  const visit = (name, path) => {
    if (path.includes(name))
      throw new Error(`Server feature cycle: ${[...path, name].join(' → ')}`);
    if (done.has(name)) return;
    for (const next of graph[name] ?? []) visit(next, [...path, name]);
    done.add(name);
  };
  for (const name of Object.keys(graph)) visit(name, []);
}
assertAcyclic(serverFeatureUses);

const serverFeatureZones = Object.entries(serverFeatureUses).map(([name, uses]) => ({
  target: `./server/src/features/${name}`,
  from: Object.keys(serverFeatureUses)
    .filter((other) => other !== name && !uses.includes(other))
    .map((other) => `./server/src/features/${other}`),
  message: `server/src/features/${name} may import only ${uses.join(', ') || 'no other feature'} (see serverFeatureUses in eslint.config.js and docs/architecture.md).`,
}));

/**
 * A feature reaches another one through its service: its queries (`repository.ts`,
 * `*Repository.ts`) are its own. Neither the app nor a plugin imports a repository.
 */
const repositoryOf = (feature) => `./server/src/features/${feature}/*[rR]epository.ts`;
const serverRepositoryZones = [
  ...Object.keys(serverFeatureUses).map((name) => ({
    target: `./server/src/features/${name}`,
    from: Object.keys(serverFeatureUses)
      .filter((other) => other !== name)
      .map(repositoryOf),
    message: `A feature calls another through its service, never its repository (server/src/features/${name}).`,
  })),
  {
    target: './server/src/app.ts',
    from: [repositoryOf('*')],
    message: 'buildApp registers plugins and routes; queries belong to their feature.',
  },
];

/** The browser app's React code, which nothing outside the browser app may load. */
const reactCode = [
  './src/app',
  './src/features',
  './src/components',
  './src/styles',
  './src/main.tsx',
];

/**
 * Test code stays out of what ships: production files import neither a test folder (fixtures and
 * shared test setup live in `src/test/`) nor a test library, so a file that needs one is a test
 * or belongs in a test folder (docs/architecture.md "Tests").
 */
const testOnlyImports = [
  {
    regex: '(^|/)test/',
    message: 'Production code never imports a test folder: fixtures are for tests only.',
  },
  {
    regex: '^(vitest|@testing-library/|fake-indexeddb|fast-check)(/|$)',
    message:
      'Only tests use test libraries: name the file *.test.ts(x) or move it into a test folder.',
  },
];
const testFiles = ['**/*.test.{ts,tsx}', '**/test/**'];

export default tseslint.config(
  {
    ignores: [
      'dist',
      'build',
      'node_modules',
      'data',
      'test-results',
      'playwright-report',
      '.orbit-*',
    ],
  },
  js.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // Layer rules: docs/architecture.md, "Layers and what may import what".
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver()],
      // no-cycle follows imports only through files it may parse.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './src/lib',
              from: ['./src/app', './src/features', './src/components'],
              message: 'src/lib sits below the UI: let the feature register with lib instead.',
            },
            {
              target: './src/components',
              from: ['./src/app', './src/features'],
              message: 'Shared components know no feature and no app shell.',
            },
            {
              target: './src/features',
              from: './src/app',
              message: 'Features never import the app shell: move the shared piece down.',
            },
            {
              target: './src/contracts',
              from: [
                './src/app',
                './src/features',
                './src/components',
                './src/lib',
                './src/styles',
              ],
              message: 'Contracts are shared by every process and import only other contracts.',
            },
            {
              target: ['./sw', './push-relay/src', './server/src'],
              from: reactCode,
              message: 'Only the browser app loads React code.',
            },
            {
              target: ['./push-relay/src', './server/src'],
              from: './src/lib',
              message: 'src/lib is browser code; share through src/contracts.',
            },
            {
              target: './sw',
              from: './src/lib',
              except: ['./idb.ts', './outboxQueue.ts'],
              message:
                'The service worker shares only the IndexedDB modules (idb.ts, outboxQueue.ts) with the page.',
            },
            {
              target: './server/src/members',
              from: ['./server/src/features', './server/src/plugins'],
              message: 'server/src/members is shared by the features and imports none of them.',
            },
            {
              target: './server/src/plugins',
              from: './server/src/features',
              message:
                'server/src/plugins sit below the features: hand a plugin what it needs through its options, or move the shared piece down.',
            },
            {
              target: ['./server/src/lib', './server/src/db', './server/src/media'],
              from: ['./server/src/features', './server/src/plugins', './server/src/members'],
              message: 'server/src/lib, db and media know no feature, plugin or member.',
            },
            ...serverFeatureZones,
            ...serverRepositoryZones,
          ],
        },
      ],
    },
  },
  {
    files: ['server/src/**/*.ts'],
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'sw/**/*.ts', 'server/src/**/*.ts', 'push-relay/src/**/*.ts'],
    ignores: testFiles,
    rules: { 'no-restricted-imports': ['error', { patterns: testOnlyImports }] },
  },
  {
    // Replaces the rule above for contracts, so it repeats its patterns.
    files: ['src/contracts/**/*.ts'],
    ignores: testFiles,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...testOnlyImports,
            {
              regex: '^(react|react-dom|react-router-dom|zustand)(/|$)',
              message: 'Contracts hold shapes only: no React or state.',
            },
            {
              regex: '^(node:|(fs|path|os|crypto|url|child_process)(/|$))',
              message: 'Contracts run in the browser and the service worker too: no Node modules.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['sw/**/*.ts'],
    languageOptions: { globals: globals.serviceworker },
  },
  {
    files: ['push-relay/**/*.ts'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: globals.node },
  },
);
