// Runs a group of long-lived child processes as one, on concurrently: when any of them ends, the
// others are stopped (SIGTERM, SIGKILL after 15 s), and this process exits with the first one's
// code. SIGINT/SIGTERM/SIGHUP are passed on, so Ctrl+C stops them all.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants } from 'node:os';
import { Command, concurrently } from 'concurrently';

const FORCE_KILL_MS = 15_000;
const COLOURS = ['cyan', 'magenta', 'yellow', 'green', 'blue'];

/**
 * @typedef {object} ProcessSpec
 * @property {string} name     short label, used in messages and as the output prefix
 * @property {string} command
 * @property {string[]} args
 * @property {NodeJS.ProcessEnv} [env]
 */

/** A shell word that stands for `text` exactly. */
const quote = (text) => `'${text.replaceAll("'", "'\\''")}'`;

/** An exit code, or a signal's name as concurrently reports it, as a shell would give it. */
const exitStatus = (code) =>
  typeof code === 'number'
    ? code
    : 128 + (constants.signals[/** @type {NodeJS.Signals} */ (code)] ?? 1);

/**
 * @param {ProcessSpec[]} specs
 * @param {{ prefix?: boolean }} [options] prefix every output line with the process name
 *   (dev mode); otherwise output is passed through untouched (structured logs stay parseable).
 */
export function runTogether(specs, { prefix = false } = {}) {
  /** @type {import('concurrently').Command[]} */
  let commands = [];
  let stopping = false;
  // Stops the rest once: one signal per child, as a second one would cut its graceful shutdown short.
  const stop = () => {
    if (stopping) return false;
    stopping = true;
    setTimeout(() => {
      for (const command of commands) if (Command.canKill(command)) command.kill('SIGKILL');
    }, FORCE_KILL_MS).unref();
    return true;
  };
  // concurrently passes these signals on to every child; what is left is to wait.
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP']))
    process.on(signal, stop);
  const running = concurrently(
    specs.map((spec) => ({
      name: spec.name,
      // `exec`: the shell gives its place to the command, so signals reach the command itself.
      command: `exec ${[spec.command, ...spec.args].map(quote).join(' ')}`,
      env: spec.env ?? process.env,
    })),
    {
      prefix: prefix ? 'name' : 'none',
      padPrefix: true,
      prefixColors: COLOURS,
      raw: !prefix,
      handleInput: false,
      // At a terminal each child gets its own process group, so a Ctrl+C reaches it once, through
      // us, and not also straight from the terminal (tsx watch skips the graceful shutdown on a
      // second one). Elsewhere children stay in our group, so whoever stops the group stops them
      // too. Either way a child must not read the terminal, so stdin is closed.
      spawn: (command, options) =>
        spawn('/bin/sh', ['-c', command], {
          ...options,
          detached: process.stdin.isTTY === true,
          stdio: ['ignore', ...(prefix ? ['pipe', 'pipe'] : ['inherit', 'inherit'])],
        }),
    },
  );
  commands = running.commands;
  for (const command of commands) {
    command.close.subscribe(({ exitCode }) => {
      if (!stop()) return;
      console.error(`${command.name} exited (${exitCode}); stopping the others.`);
      for (const other of commands) if (Command.canKill(other)) other.kill('SIGTERM');
    });
  }
  // Should this process end some other way, its children do not outlive it.
  process.on('exit', () => {
    for (const command of commands) {
      if (command.state !== 'started' || !command.pid) continue;
      try {
        process.kill(command.pid, 'SIGKILL');
      } catch {
        // It has just ended on its own.
      }
    }
  });
  running.result.then(
    () => process.exit(0),
    (/** @type {import('concurrently').CloseEvent[]} */ events) => {
      const first = [...events].sort(
        (a, b) => a.timings.endDate.getTime() - b.timings.endDate.getTime(),
      )[0];
      process.exit(first ? exitStatus(first.exitCode) : 1);
    },
  );
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
