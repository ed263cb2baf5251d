import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['src/test/setup.ts'],
          restoreMocks: true,
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/test/**/*.test.ts'],
          // Kysely imports the migration files itself (FileMigrationProvider); run through Vite,
          // it can load their TypeScript.
          server: { deps: { inline: ['kysely'] } },
          // The files share their loaded modules (docs/testing.md "The server suite"): importing the
          // server afresh for each file was most of the suite's time. A file leaves nothing behind.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The lint rules' own test (eslint.config.test.ts): ESLint's Node API on files that break them.
        test: {
          name: 'lint',
          environment: 'node',
          include: ['eslint.config.test.ts'],
        },
      },
      {
        test: {
          name: 'sw',
          environment: 'node',
          include: ['sw/**/*.test.ts'],
          restoreMocks: true,
        },
      },
      {
        test: {
          name: 'relay',
          environment: 'node',
          include: ['push-relay/test/**/*.test.ts'],
          server: { deps: { inline: ['kysely'] } },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      // The Firefox and WebKit smoke suites (e2e/cross-browser): a real server and browser each.
      // They run after the other projects and one after the other, as the builds `npm start` may
      // make share ./dist and ./build.
      ...(['firefox', 'webkit'] as const).map((browser, index) => ({
        test: {
          name: browser,
          environment: 'node',
          include: [`e2e/cross-browser/${browser}.test.ts`],
          testTimeout: 90_000,
          hookTimeout: 240_000,
          sequence: { groupOrder: index + 1 },
        },
      })),
    ],
  },
});
