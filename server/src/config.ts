import path from 'node:path';
import { z } from 'zod';
import { LOG_FORMATS, type LogFormat, chooseLogFormat } from '../../src/contracts/logging.ts';
import { type PushEndpointPolicy, PushEndpointSettings } from '../../src/contracts/pushHosts.ts';
import { REPORTS_PER_HOUR } from '../../src/contracts/safety.ts';
import { parsedWith, readSettings } from '../../src/contracts/settings.ts';
import { type ProxyTrustSetting, parseProxyTrust } from './lib/proxy.ts';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const httpUrl = (name: string) =>
  z.string().refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && !url.search && !url.hash;
    } catch {
      return false;
    }
  }, `${name} must be an http:// or https:// URL without a query`);

const S3_DETAILS = [
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
] as const;

/**
 * Every setting the server reads from the environment; docs/configuration.md "Server settings"
 * documents each (src/configurationDoc.test.ts checks that it does).
 */
const EnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
    HOST: z.string().default('127.0.0.1'),
    PORT: z.coerce.number().int().min(0).max(65535).default(5000),
    DATA_DIR: z.string().default('data'),
    DATABASE_URL: z
      .string()
      .refine((url) => /^postgres(ql)?:\/\//.test(url), 'DATABASE_URL must start with postgres://')
      .optional(),
    // Unset: DEV_APP_ORIGINS outside production, none in production (see appOriginsOf).
    APP_ORIGIN: z.string().optional(),
    STATIC_DIR: z.string().default('dist'),
    SESSION_COOKIE: z
      .string()
      .regex(/^[\w-]+$/)
      .default('orbit_session'),
    SESSION_TTL_HOURS: z.coerce.number().positive().default(24),
    SESSION_REMEMBER_DAYS: z.coerce.number().positive().default(30),
    SESSION_CACHE_SIZE: z.coerce.number().int().min(0).default(10_000),
    SESSION_CACHE_TTL_MS: z.coerce.number().int().positive().max(300_000).default(30_000),
    COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
    TRUST_PROXY: z.string().default('false').transform(parsedWith(parseProxyTrust)),
    AUTH_RATE_LIMIT: z.coerce.number().int().positive().default(10),
    AUTH_RATE_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
    REDIS_URL: z.string().optional(),
    REDIS_PREFIX: z
      .string()
      .regex(/^[\w:.-]{1,64}$/, 'REDIS_PREFIX must be 1 to 64 letters, digits, _ : . or -')
      .default('orbit'),
    RELAY_SECRET: z
      .string()
      .refine(
        (secret) => secret === '' || secret.length >= 16,
        'RELAY_SECRET must be at least 16 characters',
      )
      .optional(),
    ...PushEndpointSettings,
    METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    METRICS_HOST: z.string().default('127.0.0.1'),
    METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    LOG_FORMAT: z.enum(LOG_FORMATS).optional(),
    // Only shown in the ready line here; push-relay is the one that checks it.
    PUBLIC_URL: z.string().optional(),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
    S3_BUCKET: z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
        'S3_BUCKET must be 3 to 63 lower-case letters, digits, dots or hyphens',
      )
      .optional(),
    S3_ENDPOINT: httpUrl('S3_ENDPOINT').optional(),
    S3_REGION: z
      .string()
      .regex(/^[a-z0-9-]{1,40}$/, 'S3_REGION must be a region name such as eu-west-1')
      .optional(),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    S3_FORCE_PATH_STYLE: bool.optional(),
    MEDIA_PUBLIC_URL: httpUrl('MEDIA_PUBLIC_URL').optional(),
    UPLOADS_AT_ONCE: z.coerce.number().int().positive().default(3),
    UPLOADS_PER_HOUR: z.coerce.number().int().positive().default(200),
    REPORTS_PER_HOUR: z.coerce.number().int().positive().default(REPORTS_PER_HOUR),
    IMAGE_WORKERS: z.coerce.number().int().positive().max(64).optional(),
    IMAGE_QUEUE_LENGTH: z.coerce.number().int().min(0).default(32),
    MEDIA_SWEEP_INTERVAL_MINUTES: z.coerce
      .number({ error: 'MEDIA_SWEEP_INTERVAL_MINUTES must be a number of minutes' })
      .positive('MEDIA_SWEEP_INTERVAL_MINUTES must be more than 0')
      .max(1440, 'MEDIA_SWEEP_INTERVAL_MINUTES must be at most 1440 (a day)')
      .default(10),
  })
  .superRefine((env, context) => {
    if (!env.S3_BUCKET) {
      for (const name of S3_DETAILS) {
        if (env[name] !== undefined)
          context.addIssue({
            code: 'custom',
            path: [name],
            message: `${name} is set but S3_BUCKET is not; set S3_BUCKET to store pictures in S3`,
          });
      }
    }
    if ((env.S3_ACCESS_KEY_ID === undefined) !== (env.S3_SECRET_ACCESS_KEY === undefined)) {
      const missing =
        env.S3_ACCESS_KEY_ID === undefined ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY';
      context.addIssue({
        code: 'custom',
        path: [missing],
        message: `${missing} is missing: give S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY together, or neither`,
      });
    }
  });

/** The API's and the Vite dev server's pages on this machine, allowed by default outside production. */
const DEV_APP_ORIGINS = 'http://localhost:5000,http://localhost:5173';

/**
 * The origins of pages served elsewhere that may call with cookies. In production only the ones the
 * operator lists: the page the server serves itself is its own origin, allowed without an entry,
 * and a default would put localhost in every production CSP (docs/decisions.md "APP_ORIGIN by
 * environment").
 */
function appOriginsOf(given: string | undefined, env: Config['env']): string[] {
  return (given ?? (env === 'production' ? '' : DEV_APP_ORIGINS))
    .split(',')
    .map((origin) => origin.trim().replace(/\/$/, ''))
    .filter(Boolean);
}

/** An S3 bucket for pictures, shared by every server node. */
export interface S3Config {
  bucket: string;
  /** Any S3-compatible service (MinIO, R2…); unset means AWS itself. */
  endpoint: string | undefined;
  region: string;
  /** Unset: the SDK's default chain (environment, shared files, instance or task role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  forcePathStyle: boolean;
}

export interface Config {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  dataDir: string;
  uploadsDir: string;
  sqlitePath: string;
  databaseUrl: string | undefined;
  appOrigins: string[];
  staticDir: string;
  session: { cookie: string; ttlMs: number; rememberMs: number; secure: 'auto' | boolean };
  /** Sessions this node remembers and for how long at most (docs/decisions.md "Session cache"). */
  sessionCache: { size: number; ttlMs: number };
  /** Proxies believed about the client's address, scheme and host (X-Forwarded-*). */
  trustProxy: ProxyTrustSetting;
  authRateLimit: { max: number; windowMs: number };
  redisUrl: string | undefined;
  /** Names this deployment's keys and channels in Redis, so deployments sharing one stay apart. */
  redisPrefix: string;
  /** The shared secret of push-relay's `/relay` socket; unset turns push off. */
  relaySecret: string | undefined;
  /** Which push endpoints devices may subscribe with (PUSH_ALLOWED_HOSTS, PUSH_ALLOW_LOCAL_SERVICE). */
  pushEndpoints: PushEndpointPolicy;
  logLevel: string;
  /** Readable lines at a terminal, JSON lines elsewhere (src/contracts/logging.ts). */
  logFormat: LogFormat;
  /** The address members use, when the operator gave one (PUBLIC_URL). */
  publicUrl: string | undefined;
  shutdownTimeoutMs: number;
  /** Prometheus metrics: on a port of their own, and/or at /metrics behind a bearer token. */
  metrics: { port: number | undefined; host: string; token: string | undefined };
  /** Where pictures are kept: `uploadsDir` on this machine, or the S3 bucket when set. */
  media: { s3: S3Config | undefined; sweepIntervalMs: number };
  /**
   * The base URL pictures are handed out under (`${mediaPublicUrl}/<key>`), without a trailing
   * slash; unset: `/uploads/<key>` on the API host. Pages must be allowed to load images from it.
   */
  mediaPublicUrl: string | undefined;
  /** Per member (or client address, for signup): uploads at once and begun per hour. */
  uploadLimits: { atOnce: number; perHour: number };
  /** Reports one member may send per hour (docs/decisions.md "Safety"). */
  reportsPerHour: number;
  /** Pictures made at once (unset: one per core, leaving libuv two threads) and how many may wait. */
  imageQueue: { workers: number | undefined; waiting: number };
}

export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  stdoutIsTty: boolean = process.stdout.isTTY === true,
): Config {
  const e = readSettings(EnvSchema, env, 'configuration');
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    dataDir,
    uploadsDir: path.join(dataDir, 'uploads'),
    sqlitePath: path.join(dataDir, 'orbit.db'),
    databaseUrl: e.DATABASE_URL,
    appOrigins: appOriginsOf(e.APP_ORIGIN, e.NODE_ENV),
    staticDir: path.resolve(e.STATIC_DIR),
    session: {
      cookie: e.SESSION_COOKIE,
      ttlMs: e.SESSION_TTL_HOURS * 3_600_000,
      rememberMs: e.SESSION_REMEMBER_DAYS * 86_400_000,
      secure: e.COOKIE_SECURE === 'auto' ? 'auto' : e.COOKIE_SECURE === 'true',
    },
    sessionCache: { size: e.SESSION_CACHE_SIZE, ttlMs: e.SESSION_CACHE_TTL_MS },
    trustProxy: e.TRUST_PROXY,
    authRateLimit: { max: e.AUTH_RATE_LIMIT, windowMs: e.AUTH_RATE_WINDOW_SECONDS * 1000 },
    redisUrl: e.REDIS_URL || undefined,
    redisPrefix: e.REDIS_PREFIX,
    relaySecret: e.RELAY_SECRET || undefined,
    pushEndpoints: { extraHosts: e.PUSH_ALLOWED_HOSTS, allowLocal: e.PUSH_ALLOW_LOCAL_SERVICE },
    logLevel: e.LOG_LEVEL,
    logFormat: chooseLogFormat(e.LOG_FORMAT, stdoutIsTty),
    publicUrl: e.PUBLIC_URL,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    metrics: { port: e.METRICS_PORT, host: e.METRICS_HOST, token: e.METRICS_TOKEN },
    media: {
      s3: e.S3_BUCKET
        ? {
            bucket: e.S3_BUCKET,
            endpoint: e.S3_ENDPOINT?.replace(/\/+$/, ''),
            region: e.S3_REGION ?? 'us-east-1',
            credentials:
              e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
                ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
                : undefined,
            forcePathStyle: e.S3_FORCE_PATH_STYLE ?? false,
          }
        : undefined,
      sweepIntervalMs: Math.round(e.MEDIA_SWEEP_INTERVAL_MINUTES * 60_000),
    },
    mediaPublicUrl: e.MEDIA_PUBLIC_URL?.replace(/\/+$/, ''),
    uploadLimits: { atOnce: e.UPLOADS_AT_ONCE, perHour: e.UPLOADS_PER_HOUR },
    reportsPerHour: e.REPORTS_PER_HOUR,
    imageQueue: { workers: e.IMAGE_WORKERS, waiting: e.IMAGE_QUEUE_LENGTH },
  };
}
