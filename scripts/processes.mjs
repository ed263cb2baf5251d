// Runs a group of long-lived child processes as one: when any of them ends, the others are
// stopped, and this process exits with the first one's code. SIGINT/SIGTERM are passed on.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants } from 'node:os';
import readline from 'node:readline';

const FORCE_KILL_MS = 15_000;
const COLOURS = [36, 35, 33, 32, 34];

/**
 * @typedef {object} ProcessSpec
 * @property {string} name     short label, used in messages and as the output prefix
 * @property {string} command
 * @property {string[]} args
 * @property {NodeJS.ProcessEnv} [env]
 */

/**
 * @param {ProcessSpec[]} specs
 * @param {{ prefix?: boolean }} [options] prefix every output line with the process name
 *   (dev mode); otherwise output is passed through untouched (structured logs stay parseable).
 */
export function runTogether(specs, { prefix = false } = {}) {
  const width = Math.max(...specs.map((spec) => spec.name.length));
  const colour = process.stdout.isTTY;
  /** @type {{ spec: ProcessSpec, child: import('node:child_process').ChildProcess, done: boolean, signalled: boolean }[]} */
  const running = [];
  let stopping = false;
  /** @type {number | undefined} */
  let exitCode;

  const label = (spec, index) => {
    const text = `[${spec.name.padEnd(width)}]`;
    return colour ? `\u001b[${COLOURS[index % COLOURS.length]}m${text}\u001b[0m` : text;
  };

  const stopAll = (signal) => {
    if (!stopping) {
      stopping = true;
      setTimeout(() => {
        for (const entry of running) if (!entry.done) entry.child.kill('SIGKILL');
      }, FORCE_KILL_MS).unref();
    }
    // One signal per child: a second one would cut its graceful shutdown short.
    for (const entry of running) {
      if (entry.done || entry.signalled) continue;
      entry.signalled = true;
      entry.child.kill(signal);
    }
  };

  specs.forEach((spec, index) => {
    // At a terminal each child gets its own process group, so a Ctrl+C reaches it once, through
    // us, and not also straight from the terminal (tsx watch skips the graceful shutdown on a
    // second one). Elsewhere children stay in our group, so whoever stops the group stops them
    // too. Either way a child must not read the terminal, so stdin is closed.
    const child = spawn(spec.command, spec.args, {
      env: spec.env ?? process.env,
      detached: process.stdin.isTTY === true,
      stdio: ['ignore', prefix ? 'pipe' : 'inherit', prefix ? 'pipe' : 'inherit'],
    });
    const entry = { spec, child, done: false, signalled: false };
    running.push(entry);
    if (prefix) {
      const tag = label(spec, index);
      for (const [stream, target] of [
        [child.stdout, process.stdout],
        [child.stderr, process.stderr],
      ]) {
        if (!stream) continue;
        readline
          .createInterface({ input: stream })
          .on('line', (line) => target.write(`${tag} ${line}\n`));
      }
    }
    child.on('error', (error) => {
      console.error(`${spec.name}: could not start ${spec.command}: ${error.message}`);
      entry.done = true;
      exitCode ??= 1;
      stopAll('SIGTERM');
      finishIfAllDone();
    });
    child.on('exit', (code, signal) => {
      entry.done = true;
      const result = code ?? 128 + (signal ? constants.signals[signal] : 1);
      if (!stopping)
        console.error(`${spec.name} exited (${signal ?? `code ${code}`}); stopping the others.`);
      exitCode ??= result;
      stopAll('SIGTERM');
      finishIfAllDone();
    });
  });

  function finishIfAllDone() {
    if (running.every((entry) => entry.done)) process.exit(exitCode ?? 0);
  }

  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
    process.on(signal, () => stopAll(signal === 'SIGHUP' ? 'SIGTERM' : signal));
  }
  // Should this process end some other way, its children do not outlive it.
  process.on('exit', () => {
    for (const entry of running) if (!entry.done) entry.child.kill('SIGKILL');
  });
}

/** Where a relay on this machine reaches the server started beside it. */
function localServerUrl(env) {
  const host = env.HOST && !['0.0.0.0', '::', '[::]'].includes(env.HOST) ? env.HOST : '127.0.0.1';
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${env.PORT}`;
}

/**
 * push-relay beside a server started here: both get the same RELAY_SECRET (a random one unless
 * one is configured) and DATA_DIR, and the relay connects to this server unless SERVER_URL says
 * otherwise. In production the relay needs a contact for the push services: VAPID_SUBJECT, else
 * PUBLIC_URL when it is https:, else the local mailto when Orbit is served from this machine.
 * When there is none (PUBLIC_URL=http://orbit.lan), push stays off, said once here with what to
 * set, and the server runs alone, with no secret, so it offers no push key to browsers.
 *
 * @param {NodeJS.ProcessEnv} env the server's environment (PORT and DATA_DIR set)
 * @param {{ command: string, args: string[], vapidSubjectFallback: typeof import('../push-relay/src/contact.ts').vapidSubjectFallback }} how
 *   the relay's command, and the relay's own rule for its contact (push-relay/src/contact.ts:
 *   compiled for `npm start`, through tsx for `npm run dev`), so the two never disagree
 * @returns {{ serverEnv: NodeJS.ProcessEnv, relay: ProcessSpec | undefined }}
 */
export function pushRelay(env, how) {
  if (env.NODE_ENV === 'production' && !env.VAPID_SUBJECT) {
    const fallback = how.vapidSubjectFallback(env.PUBLIC_URL || undefined, true);
    // An invalid PUBLIC_URL is the relay's to refuse, as any invalid setting of its own.
    if ('off' in fallback) {
      console.warn(`Push notifications are off: ${fallback.off}`);
      return { serverEnv: env, relay: undefined };
    }
  }
  const secret = env.RELAY_SECRET || randomBytes(32).toString('base64url');
  const serverEnv = { ...env, RELAY_SECRET: secret };
  return {
    serverEnv,
    relay: {
      name: 'relay',
      command: how.command,
      args: how.args,
      env: { ...serverEnv, SERVER_URL: env.SERVER_URL || localServerUrl(env) },
    },
  };
}
