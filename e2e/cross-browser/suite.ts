import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type AppServer, startApp } from './app-server.ts';
import type { Driver } from './driver.ts';
import { type Files, makeFiles } from './files.ts';
import { FLOWS } from './flows.ts';
import type { Story } from './steps.ts';

const SCREENSHOTS = path.resolve('test-results', 'cross-browser');

/**
 * The flows of flows.ts as one test each, in order, in one browser against one fresh server.
 * `missing` says why the browser cannot run here (the suite is then skipped, with the reason).
 */
export function smokeSuite(
  browser: Driver['browser'],
  missing: string | undefined,
  launch: () => Promise<Driver>,
) {
  if (missing) console.warn(`${browser} smoke suite skipped: ${missing}`);
  describe.skipIf(missing !== undefined)(`${browser}: the main flows`, () => {
    let app: AppServer | undefined;
    let driver: Driver | undefined;
    let files: Files | undefined;
    let story: Story | undefined;

    beforeAll(async () => {
      // Each is kept as soon as it is up, so afterAll stops it even when the next one fails.
      const started = startApp().then((server) => (app = server));
      started.catch(() => undefined); // reported below, where it is awaited
      files = await makeFiles();
      // A browser that fails to come up once (a busy machine) gets one more try, said aloud.
      driver = await launch().catch((error: unknown) => {
        console.warn(`${browser} did not start (${String(error)}); trying once more`);
        return launch();
      });
      story = { driver, app: await started, files, signedIn: false };
    });

    afterAll(async () => {
      await driver?.close();
      await app?.stop();
      files?.remove();
    });

    FLOWS.forEach((flow, index) => {
      it(flow.name, async ({ onTestFailed }) => {
        if (!story) throw new Error('the browser or the server did not start');
        const current = story;
        onTestFailed(async () => {
          // What the page looked like; the next flow signs in again from scratch.
          current.signedIn = false;
          fs.mkdirSync(SCREENSHOTS, { recursive: true });
          const slug = flow.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
          const file = path.join(SCREENSHOTS, `${browser}-${index + 1}-${slug}.png`);
          // Whether the server still answers tells a browser problem from a server one.
          const health = await fetch(`${current.app.origin}/healthz`, {
            signal: AbortSignal.timeout(5_000),
          }).then(
            (response) => `answers ${response.status}`,
            (error: unknown) => `does not answer (${String(error)})`,
          );
          console.error(
            `the server ${health}; page: ${await current.driver.url().catch(() => '?')}`,
          );
          await current.driver
            .screenshot(file)
            .then(() => console.error(`screenshot: ${file}`))
            .catch((error: unknown) => console.error(`no screenshot: ${String(error)}`));
        });
        await flow.run(current);
      });
    });
  });
}
