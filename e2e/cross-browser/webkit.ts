import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import { Builder, Key, type WebElement } from 'selenium-webdriver';
import { freePort } from './app-server.ts';
import type { Driver, Query } from './driver.ts';
import { elementScript, navigate, pageScript, waitUntil } from './driver.ts';

/** Debian's webkit2gtk-driver; WEBKIT_DRIVER_PATH points elsewhere. */
const WEBKIT_DRIVER_PATH = process.env.WEBKIT_DRIVER_PATH || '/usr/bin/WebKitWebDriver';
const XVFB_PATH = process.env.XVFB_PATH || '/usr/bin/Xvfb';

/** WebKitGTK's MiniBrowser: MINIBROWSER_PATH, else the one the installed package ships. */
function miniBrowserPath(): string {
  if (process.env.MINIBROWSER_PATH) return process.env.MINIBROWSER_PATH;
  try {
    const listed = execFileSync('dpkg', ['-L', 'libwebkit2gtk-4.1-0'], { encoding: 'utf8' })
      .split('\n')
      .find((file) => file.endsWith('/MiniBrowser'));
    if (listed) return listed;
  } catch {
    // Not a Debian system, or the package is missing: the usual place.
  }
  return '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
}

export function webkitMissing(): string | undefined {
  const needed = [
    [
      WEBKIT_DRIVER_PATH,
      "WebKitWebDriver (install Debian's webkit2gtk-driver or set WEBKIT_DRIVER_PATH)",
    ],
    [miniBrowserPath(), "MiniBrowser (install Debian's webkit2gtk-driver or set MINIBROWSER_PATH)"],
    [XVFB_PATH, "Xvfb (install Debian's xvfb or set XVFB_PATH)"],
  ] as const;
  const missing = needed.find(([file]) => !fs.existsSync(file));
  return missing ? `${missing[1]} was not found at ${missing[0]}` : undefined;
}

/** An X server of our own; `-displayfd` makes it pick a free display and tell us which. */
async function startXvfb(): Promise<{ display: string; process: ChildProcess }> {
  const child = spawn(
    XVFB_PATH,
    ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'],
    {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    },
  );
  const display = await new Promise<string>((resolve, reject) => {
    const output = child.stdio[3] as NodeJS.ReadableStream;
    output.once('data', (chunk: Buffer) => resolve(`:${chunk.toString().trim()}`));
    child.once('exit', (code) => reject(new Error(`Xvfb exited with ${code}`)));
  });
  return { display, process: child };
}

async function stopProcess(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

const KEYS = { Escape: Key.ESCAPE, ArrowRight: Key.ARROW_RIGHT, ArrowLeft: Key.ARROW_LEFT };

/** WebKitGTK's MiniBrowser in its own Xvfb, driven by selenium-webdriver through WebKitWebDriver. */
export async function launchWebkit(): Promise<Driver> {
  const xvfb = await startXvfb();
  const port = await freePort();
  const webDriver = spawn(WEBKIT_DRIVER_PATH, [`--port=${port}`], {
    env: { ...process.env, DISPLAY: xvfb.display },
    stdio: 'ignore',
  });
  const stopAll = async () => {
    await stopProcess(webDriver);
    await stopProcess(xvfb.process);
  };
  try {
    await waitUntil('WebKitWebDriver to answer', async () => {
      const response = await fetch(`http://127.0.0.1:${port}/status`, {
        signal: AbortSignal.timeout(2_000),
      }).catch(() => undefined);
      return response?.ok;
    });
  } catch (error) {
    await stopAll();
    throw error;
  }
  const session = new Builder()
    .usingServer(`http://127.0.0.1:${port}`)
    .withCapabilities({
      browserName: 'MiniBrowser',
      'webkitgtk:browserOptions': { binary: miniBrowserPath(), args: ['--automation'] },
    })
    .build();
  // A browser that never comes up would otherwise hold the suite until its hook times out.
  let timer: NodeJS.Timeout | undefined;
  const driver = await Promise.race([
    session,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('MiniBrowser did not start within 60 s')), 60_000);
    }),
  ])
    .catch(async (error: unknown) => {
      await stopAll();
      throw error;
    })
    .finally(() => clearTimeout(timer));
  await driver.manage().window().setRect({ width: 1280, height: 900 });

  const element = (query: Query) =>
    waitUntil(`${JSON.stringify(query)} to show`, async () => {
      const found: unknown = await driver.executeScript(`return ${elementScript(query)}`);
      return found ? (found as WebElement) : null;
    });

  const run: Driver['run'] = <A extends unknown[], R>(fn: (...args: A) => R, ...args: A) =>
    driver.executeScript<Awaited<R>>(`return ${pageScript(fn, args)}`);

  return {
    browser: 'webkit',
    run,
    goto: (url) => navigate(run, () => driver.get(url)),
    reload: () => navigate(run, () => driver.navigate().refresh()),
    url: () => driver.getCurrentUrl(),
    click: async (query) => (await element(query)).click(),
    type: async (query, text) => (await element(query)).sendKeys(text),
    setFiles: async (query, files) =>
      (await element({ ...query, hidden: true })).sendKeys(files.join('\n')),
    press: (key) => driver.actions().sendKeys(KEYS[key]).perform(),
    cookie: async (name) => {
      const cookie = await driver
        .manage()
        .getCookie(name)
        .catch(() => undefined);
      if (!cookie) return undefined;
      const { expiry } = cookie;
      return { expires: expiry instanceof Date ? expiry.getTime() / 1000 : expiry };
    },
    screenshot: async (file) => fs.writeFileSync(file, await driver.takeScreenshot(), 'base64'),
    close: async () => {
      await driver.quit().catch(() => undefined);
      await stopAll();
    },
  };
}
