import path from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** Every setting the server reads from the environment; README.md "Configuration" documents each. */
const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  DATA_DIR: z.string().default('data'),
  DATABASE_URL: z
    .string()
    .refine((url) => /^postgres(ql)?:\/\//.test(url), 'DATABASE_URL must start with postgres://')
    .optional(),
  APP_ORIGIN: z.string().default('http://localhost:5000,http://localhost:5173'),
  STATIC_DIR: z.string().default('dist'),
  SESSION_COOKIE: z
    .string()
    .regex(/^[\w-]+$/)
    .default('orbit_session'),
  SESSION_TTL_HOURS: z.coerce.number().positive().default(24),
  SESSION_REMEMBER_DAYS: z.coerce.number().positive().default(30),
  COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
  TRUST_PROXY: bool.default(false),
  AUTH_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  AUTH_RATE_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
  REDIS_URL: z.string().optional(),
  RELAY_SECRET: z
    .string()
    .refine(
      (secret) => secret === '' || secret.length >= 16,
      'RELAY_SECRET must be at least 16 characters',
    )
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
});

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
  trustProxy: boolean;
  authRateLimit: { max: number; windowMs: number };
  redisUrl: string | undefined;
  /** The shared secret of push-relay's `/relay` socket; unset turns push off. */
  relaySecret: string | undefined;
  logLevel: string;
  shutdownTimeoutMs: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    dataDir,
    uploadsDir: path.join(dataDir, 'uploads'),
    sqlitePath: path.join(dataDir, 'orbit.db'),
    databaseUrl: e.DATABASE_URL,
    appOrigins: e.APP_ORIGIN.split(',')
      .map((origin) => origin.trim().replace(/\/$/, ''))
      .filter(Boolean),
    staticDir: path.resolve(e.STATIC_DIR),
    session: {
      cookie: e.SESSION_COOKIE,
      ttlMs: e.SESSION_TTL_HOURS * 3_600_000,
      rememberMs: e.SESSION_REMEMBER_DAYS * 86_400_000,
      secure: e.COOKIE_SECURE === 'auto' ? 'auto' : e.COOKIE_SECURE === 'true',
    },
    trustProxy: e.TRUST_PROXY,
    authRateLimit: { max: e.AUTH_RATE_LIMIT, windowMs: e.AUTH_RATE_WINDOW_SECONDS * 1000 },
    redisUrl: e.REDIS_URL || undefined,
    relaySecret: e.RELAY_SECRET || undefined,
    logLevel: e.LOG_LEVEL,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
  };
}
