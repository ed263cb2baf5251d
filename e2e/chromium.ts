/** Debian's Chromium, headless, as the browser tests, the cluster test and the benchmarks launch it. */
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

const CHROME_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Playwright's `launchOptions` for it. */
export const chromiumLaunchOptions = { executablePath: CHROME_PATH, args: CHROME_ARGS };
