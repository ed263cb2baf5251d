import path from 'node:path';
import { z } from 'zod';
import { LOG_FORMATS, type LogFormat, chooseLogFormat } from '../../src/contracts/logging.ts';
import { PUSH_TTL_SECONDS, RELAY_LEASE_MAX_MS } from '../../src/contracts/push.ts';
import { type PushEndpointPolicy, PushEndpointSettings } from '../../src/contracts/pushHosts.ts';
import { readSettings } from '../../src/contracts/settings.ts';
import { LOOPBACK_HOST, vapidSubjectFallback } from './contact.ts';
import { LOG_LEVELS, type LogLevel } from './log.ts';

/**
 * Every setting the relay reads from the environment; docs/configuration.md "Push relay settings"
 * documents each (src/configurationDoc.test.ts checks that it does).
 */
const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  SERVER_URL: z.url({ protocol: /^https?$/ }).optional(),
  RELAY_SECRET: z.string().min(16, 'RELAY_SECRET must be at least 16 characters'),
  VAPID_PUBLIC_KEY: z.string().optional(),
  VAPID_PRIVATE_KEY: z.string().optional(),
  VAPID_SUBJECT: z.string().optional(),
  PUBLIC_URL: z.string().optional(),
  DATA_DIR: z.string().default('data'),
  RELAY_HEALTH_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  RELAY_HEALTH_HOST: z.string().default('0.0.0.0'),
  PUSH_TTL_SECONDS: z.coerce.number().int().min(0).default(PUSH_TTL_SECONDS),
  PUSH_CONCURRENCY: z.coerce.number().int().positive().default(50),
  PUSH_MAX_ATTEMPTS: z.coerce.number().int().positive().default(5),
  PUSH_RETRY_BASE_MS: z.coerce.number().int().positive().default(1_000),
  PUSH_RETRY_MAX_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * 60_000),
  PUSH_LEASE_SECONDS: z.coerce
    .number()
    .min(1)
    .max(RELAY_LEASE_MAX_MS / 1000)
    .default(10),
  ...PushEndpointSettings,
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  LOG_FORMAT: z.enum(LOG_FORMATS).optional(),
});

export interface RetryPolicy {
  /** Attempts per delivery, the first one included. */
  maxAttempts: number;
  /** The first wait; each later one doubles (with jitter), after any Retry-After the service asks. */
  baseMs: number;
  /** No retry is scheduled past this long after the first attempt. */
  budgetMs: number;
}

export interface RelaySettings {
  production: boolean;
  serverUrl: string;
  secret: string;
  /** Keys given in the environment; without them the relay keeps its own in `dataDir`. */
  vapidKeys: { publicKey: string; privateKey: string } | undefined;
  vapidSubject: string;
  dataDir: string;
  health: { port: number; host: string } | undefined;
  ttlSeconds: number;
  concurrency: number;
  retry: RetryPolicy;
  /** How long the push lease lasts: a standby relay takes over at most this long after the holder stops. */
  leaseMs: number;
  /** Which endpoints it pushes to (PUSH_ALLOWED_HOSTS, PUSH_ALLOW_LOCAL_SERVICE). */
  endpoints: PushEndpointPolicy;
  logLevel: LogLevel;
  /** Readable lines at a terminal, JSON lines elsewhere (src/contracts/logging.ts). */
  logFormat: LogFormat;
}

export class RelayConfigError extends Error {
  override name = 'RelayConfigError';
}

/**
 * The VAPID subject push services may use to reach the operator. A given VAPID_SUBJECT must be a
 * `mailto:` address or `https:` URL, in production a real one (Apple's service refuses a localhost
 * one). Without it: PUBLIC_URL when that is https:, else the local mailto when Orbit is served
 * from this machine; otherwise there is none and push is off (the error says what to set).
 */
export function checkVapidSubject(
  subject: string | undefined,
  production: boolean,
  publicUrl?: string,
): string {
  if (!subject) {
    const fallback = vapidSubjectFallback(publicUrl, production);
    if ('subject' in fallback) return fallback.subject;
    throw new RelayConfigError(
      'off' in fallback ? `Push notifications are off: ${fallback.off}` : fallback.invalid,
    );
  }
  let url: URL;
  try {
    url = new URL(subject);
  } catch {
    throw new RelayConfigError(`VAPID_SUBJECT must be a mailto: or https: URL, not "${subject}"`);
  }
  if (url.protocol !== 'mailto:' && url.protocol !== 'https:')
    throw new RelayConfigError(`VAPID_SUBJECT must be a mailto: or https: URL, not "${subject}"`);
  const host = url.protocol === 'mailto:' ? (url.pathname.split('@')[1] ?? '') : url.hostname;
  if (production && (!host.includes('.') || LOOPBACK_HOST.test(host)))
    throw new RelayConfigError(
      `VAPID_SUBJECT must name a real address in production (push services refuse "${subject}")`,
    );
  return subject;
}

function vapidKeysFrom(e: z.infer<typeof EnvSchema>): RelaySettings['vapidKeys'] {
  if (!e.VAPID_PUBLIC_KEY && !e.VAPID_PRIVATE_KEY) return undefined;
  if (!e.VAPID_PUBLIC_KEY || !e.VAPID_PRIVATE_KEY)
    throw new RelayConfigError('Set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither');
  return { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY };
}

export function loadRelaySettings(
  env: NodeJS.ProcessEnv = process.env,
  stdoutIsTty: boolean = process.stdout.isTTY === true,
): RelaySettings {
  const e = readSettings(EnvSchema, env, 'relay configuration', RelayConfigError);
  const production = e.NODE_ENV === 'production';
  return {
    production,
    serverUrl: (e.SERVER_URL ?? `http://127.0.0.1:${e.PORT}`).replace(/\/$/, ''),
    secret: e.RELAY_SECRET,
    vapidKeys: vapidKeysFrom(e),
    vapidSubject: checkVapidSubject(e.VAPID_SUBJECT, production, e.PUBLIC_URL),
    dataDir: path.resolve(e.DATA_DIR),
    health:
      e.RELAY_HEALTH_PORT === undefined
        ? undefined
        : { port: e.RELAY_HEALTH_PORT, host: e.RELAY_HEALTH_HOST },
    ttlSeconds: e.PUSH_TTL_SECONDS,
    concurrency: e.PUSH_CONCURRENCY,
    retry: {
      maxAttempts: e.PUSH_MAX_ATTEMPTS,
      baseMs: e.PUSH_RETRY_BASE_MS,
      budgetMs: e.PUSH_RETRY_MAX_MS,
    },
    leaseMs: Math.round(e.PUSH_LEASE_SECONDS * 1000),
    endpoints: {
      extraHosts: e.PUSH_ALLOWED_HOSTS,
      allowLocal: e.PUSH_ALLOW_LOCAL_SERVICE,
    },
    logLevel: e.LOG_LEVEL,
    logFormat: chooseLogFormat(e.LOG_FORMAT, stdoutIsTty),
  };
}
