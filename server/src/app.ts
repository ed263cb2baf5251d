import { randomUUID } from 'node:crypto';
import path from 'node:path';
import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyCors from '@fastify/cors';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import { MAX_UPLOAD_BYTES } from '../../src/contracts/constants.ts';
import type { Config } from './config.ts';
import { type Db, type Dialect, createDatabase } from './db/index.ts';
import { migrateToLatest, sql } from './db/migrations.ts';
import { AppError } from './errors.ts';
import { loggerOptions } from './lib/logger.ts';
import { proxyTrust } from './lib/proxy.ts';
import { connectRedis, forSocketAdapter } from './lib/redis.ts';
import { authRoutes } from './features/auth/routes.ts';
import { deleteExpiredSessions } from './features/auth/repository.ts';
import type { AuthDeps } from './features/auth/service.ts';
import { friendRoutes } from './features/friends/routes.ts';
import { findImage } from './features/gallery/repository.ts';
import { galleryRoutes } from './features/gallery/routes.ts';
import type { GalleryDeps } from './features/gallery/service.ts';
import { notificationRoutes } from './features/notifications/routes.ts';
import type { NotificationEvents } from './features/notifications/service.ts';
import { pushRoutes } from './features/push/routes.ts';
import type { PushDeps } from './features/push/service.ts';
import { userRoutes } from './features/users/routes.ts';
import { createMedia, createMediaStore } from './media/index.ts';
import { createMediaSweeper, sweepMedia } from './media/sweep.ts';
import { registerAuth } from './plugins/auth.ts';
import { frameworkErrors, registerErrorHandler } from './plugins/errors.ts';
import { registerHealth } from './plugins/health.ts';
import { registerMetrics } from './plugins/metrics.ts';
import { registerRealtime } from './plugins/realtime.ts';
import { registerRelay } from './plugins/relay.ts';
import { isApiRoute, registerOriginCheck, registerSecurityHeaders } from './plugins/security.ts';
import { registerApp, registerUploads, sendIndex, wantsAppShell } from './plugins/static.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    dialect: Dialect;
    config: Config;
  }
}

export interface BuildOptions {
  /** Use this database instead of opening one from the config (tests share one per file). */
  db?: { db: Db; dialect: Dialect };
}

const SESSION_SWEEP_MS = 60 * 60 * 1000;

/** The whole server as a Fastify instance; it never listens (main.ts and tests decide that). */
export async function buildApp(
  config: Config,
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  const trust = proxyTrust(config.trustProxy);
  const app = Fastify({
    logger: loggerOptions(config),
    // A function, not Fastify's hop count: Fastify reads a bare number as "trust nothing".
    ...(trust ? { trustProxy: trust } : {}),
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    bodyLimit: 256 * 1024,
    forceCloseConnections: 'idle',
    frameworkErrors,
  });

  const { db, dialect } =
    options.db ??
    createDatabase({
      ...config,
      onIdleError: (error) => app.log.warn({ err: error }, 'an idle database connection failed'),
    });
  const ownsDb = !options.db;
  await migrateToLatest(db);
  app.decorate('db', db);
  app.decorate('dialect', dialect);
  app.decorate('config', config);
  if (ownsDb) app.addHook('onClose', () => db.destroy());

  const store = await createMediaStore(config);
  const media = createMedia(store, config.mediaPublicUrl, app.log);
  // Request bodies stay on this node's disk whichever store keeps the pictures.
  const incomingDir = path.join(config.uploadsDir, '.incoming');
  const deps: AuthDeps = { db, media, session: config.session };

  registerErrorHandler(app);
  // JSON lists (a large gallery) shrink tenfold; brotli at a fast level keeps the CPU cost small.
  await app.register(fastifyCompress, {
    threshold: 1024,
    encodings: ['br', 'gzip', 'deflate'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
  await app.register(fastifyCookie);
  await app.register(fastifyCors, {
    origin: config.appOrigins,
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
  });
  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 40, fieldSize: 64 * 1024, parts: 50 },
  });
  // One connection for rate limits, one for the socket adapter (it holds a blocking read open).
  const limitsRedis = config.redisUrl
    ? connectRedis(config.redisUrl, app.log, 'limits')
    : undefined;
  const adapterRedis = config.redisUrl
    ? connectRedis(config.redisUrl, app.log, 'events')
    : undefined;
  const redis = limitsRedis?.client;
  app.addHook('onClose', async () => {
    await Promise.all([limitsRedis?.close(), adapterRedis?.close()]);
  });
  await app.register(fastifyRateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: `${config.redisPrefix}-rl:` } : {}),
    errorResponseBuilder: (_request, context) =>
      new AppError(
        429,
        `Too many attempts. Try again in ${Math.ceil(context.ttl / 1000)} seconds.`,
      ),
  });

  registerSecurityHeaders(app, config.appOrigins, config.mediaPublicUrl);
  registerOriginCheck(app, {
    allowed: config.appOrigins,
    cookieName: config.session.cookie,
    trust,
  });
  registerAuth(app, deps, config);
  const realtime = await registerRealtime(app, deps, config, {
    trust,
    redis: adapterRedis && forSocketAdapter(adapterRedis.client),
    imageOwner: async (imageId) => (await findImage(db, imageId))?.owner_id,
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (isApiRoute(request) && !reply.hasHeader('cache-control')) {
      reply.header('Cache-Control', 'no-store');
    }
    return payload;
  });

  registerHealth(app, {
    database: () => sql`select 1`.execute(db),
    ...(redis ? { redis: () => redis.ping() } : {}),
    media: () => store.check(),
  });
  await registerMetrics(app, config, () => realtime.io.of('/').sockets.size);

  authRoutes(app, { deps, config });
  userRoutes(app, { deps });
  const pushDeps: PushDeps = {
    db,
    dialect,
    // Unknown presence counts as "no open tab": a repeated notification beats a missed one.
    online: (userIds) =>
      realtime.onlineAmong(userIds).catch((error: unknown) => {
        app.log.warn({ err: error }, 'presence lookup for push failed');
        return new Set<string>();
      }),
    mediaUrl: media.url,
  };
  const relay = registerRelay(app, realtime.io, pushDeps, config.relaySecret);
  const notificationEvents: NotificationEvents = {
    ...realtime.notificationEvents,
    created: (recipientId, notification) => {
      realtime.notificationEvents.created(recipientId, notification);
      relay.notificationCreated(recipientId, notification);
    },
  };
  deps.notifications = notificationEvents;
  friendRoutes(app, {
    deps: {
      db,
      publish: (event, payload) => realtime.publishFriendEvent(event, payload),
      notifications: notificationEvents,
      mediaUrl: media.url,
    },
  });
  notificationRoutes(app, { deps: { db, events: notificationEvents, mediaUrl: media.url } });
  const galleryDeps: GalleryDeps = {
    db,
    media,
    incomingDir,
    events: realtime.galleryEvents,
    notifications: notificationEvents,
  };
  galleryRoutes(app, { deps: galleryDeps });
  pushRoutes(app, { deps: pushDeps, enabled: config.relaySecret !== undefined });
  // Pictures a crash left behind (written, but no row names them) and abandoned request bodies
  // go once they are old enough to be stray: at start, then periodically.
  const sweeper = createMediaSweeper({
    sweep: () => sweepMedia({ db, store, incomingDir }),
    intervalMs: config.media.sweepIntervalMs,
    redis,
    lockKey: `${config.redisPrefix}-media-sweep`,
    log: app.log,
  });
  app.addHook('onReady', (done) => {
    store.check().catch((error: unknown) => app.log.error({ err: error }, 'media store unusable'));
    sweeper.start();
    done();
  });
  // Runs before the Redis and database hooks above (onClose hooks run last-added first).
  app.addHook('onClose', async () => {
    await sweeper.stop();
    store.close();
  });
  registerUploads(app, store);
  const hasApp = await registerApp(app, config.staticDir);

  app.setNotFoundHandler((request, reply) => {
    if (hasApp && wantsAppShell(request)) return sendIndex(reply);
    return reply
      .status(404)
      .send({ error: `Not found: ${request.method} ${request.url.split('?')[0]}` });
  });

  const sweep = setInterval(() => {
    deleteExpiredSessions(db, new Date().toISOString()).catch((error: unknown) =>
      app.log.warn({ err: error }, 'session sweep failed'),
    );
  }, SESSION_SWEEP_MS);
  sweep.unref();
  app.addHook('onClose', (_instance, done) => {
    clearInterval(sweep);
    done();
  });

  return app;
}
