import { randomUUID } from 'node:crypto';
import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyCors from '@fastify/cors';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import {
  type ZodTypeProvider,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { MAX_UPLOAD_BYTES } from '../../src/contracts/constants.ts';
import type { Config } from './config.ts';
import type { Db, Dialect } from './db/index.ts';
import { sql } from './db/migrations.ts';
import { Invalid, TooManyAttempts } from './errors.ts';
import { loggerOptions, requestLog } from './lib/logger.ts';
import { proxyTrust } from './lib/proxy.ts';
import { redisLimitStore } from './lib/redis.ts';
import { textProblem } from './lib/text.ts';
import { accountRoutes } from './features/account/routes.ts';
import { visibleMemberById } from './members/blocks.ts';
import { authMemberRoutes, authPublicRoutes } from './features/auth/routes.ts';
import { blockRoutes } from './features/blocks/routes.ts';
import { deleteExpiredSessions } from './features/auth/repository.ts';
import { friendRoutes } from './features/friends/routes.ts';
import { visibleImage } from './features/gallery/service.ts';
import { galleryRoutes } from './features/gallery/routes.ts';
import { moderationRoutes, reportRoutes } from './features/moderation/routes.ts';
import { notificationRoutes } from './features/notifications/routes.ts';
import { pushPublicRoutes, pushRoutes } from './features/push/routes.ts';
import { userRoutes } from './features/users/routes.ts';
import { authPlugin, requireMember } from './plugins/auth.ts';
import { registerCaching } from './plugins/caching.ts';
import { databasePlugin } from './plugins/database.ts';
import { registerApiDocs } from './plugins/docs.ts';
import { frameworkErrors, registerErrorHandler } from './plugins/errors.ts';
import { registerHealth } from './plugins/health.ts';
import { mediaPlugin } from './plugins/media.ts';
import { registerMetrics } from './plugins/metrics.ts';
import { notificationsPlugin } from './plugins/notifications.ts';
import { realtimePlugin } from './plugins/realtime.ts';
import { redisPlugin } from './plugins/redis.ts';
import { relayPlugin } from './plugins/relay.ts';
import { registerOriginCheck, registerSecurityHeaders } from './plugins/security.ts';
import {
  appStyleHashes,
  registerApp,
  registerUploads,
  sendIndex,
  wantsAppShell,
} from './plugins/static.ts';
import { profileDocument } from './features/users/page.ts';
import { uploadsPlugin } from './plugins/uploads.ts';

export interface BuildOptions {
  /** Use this database instead of opening one from the config (tests share one per file). */
  db?: { db: Db; dialect: Dialect };
  /** Write the log here instead of stdout (tests read what was logged). */
  logStream?: { write(line: string): void };
  /** Hears of every route as it is added (the fuzz suite generates requests for each). */
  onRoute?: (route: RouteOptions) => void;
}

const SESSION_SWEEP_MS = 60 * 60 * 1000;

/**
 * The whole server as a Fastify instance; it never listens (main.ts and tests decide that). The
 * shared pieces are plugins that decorate the app in order (database, Redis, media, sessions,
 * realtime, relay, notifications); the routes come after and read what they need from the app.
 */
export async function buildApp(
  config: Config,
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  const trust = proxyTrust(config.trustProxy);
  const app = Fastify({
    logger: {
      ...loggerOptions(config),
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    // A function, not Fastify's hop count: Fastify reads a bare number as "trust nothing".
    ...(trust ? { trustProxy: trust } : {}),
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    logController: requestLog(),
    bodyLimit: 256 * 1024,
    forceCloseConnections: 'idle',
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();
  // Requests are validated and answers serialised with the zod contracts of src/contracts/:
  // a field the contract does not name never leaves (docs/decisions.md "One canonical shape").
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  if (options.onRoute) app.addHook('onRoute', options.onRoute);

  registerErrorHandler(app);
  await app.register(databasePlugin, { config, db: options.db });
  await app.register(redisPlugin);
  await app.register(mediaPlugin);
  await app.register(uploadsPlugin);
  const { db } = app;
  const limits = app.redis.limits;

  // Before compression: ETags are taken from the JSON text (docs/decisions.md "Caching").
  registerCaching(app);
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
  await app.register(fastifyRateLimit, {
    global: false,
    // Without Redis the attempts cannot be counted: 503 at once, never a skipped limit.
    ...(limits ? { store: redisLimitStore(limits, `${config.redisPrefix}-rl:`) } : {}),
    // An IPv6 client counts by its /64 (an IPv4-mapped one by its IPv4 address): one subscriber
    // usually holds the whole prefix. The plugin's default, stated so it cannot drift.
    ipv6Subnet: 64,
    errorResponseBuilder: (_request, context) => new TooManyAttempts(Math.ceil(context.ttl / 1000)),
  });

  await registerSecurityHeaders(app, {
    allowed: config.appOrigins,
    mediaPublicUrl: config.mediaPublicUrl,
    trust,
    styleHashes: () => appStyleHashes(app),
  });
  registerOriginCheck(app, {
    allowed: config.appOrigins,
    cookieName: config.session.cookie,
    trust,
  });
  await app.register(authPlugin);
  await app.register(realtimePlugin, {
    trust,
    // docs/decisions.md "A block stops live events at once, on every node": one statement each.
    watchedOwner: async (viewerId, kind, id) =>
      kind === 'gallery'
        ? (await visibleMemberById(db, viewerId, id))?.id
        : (await visibleImage({ db }, viewerId, id))?.owner_id,
  });
  await app.register(relayPlugin);
  await app.register(notificationsPlugin);

  // A call without a body is read as an empty one, so each field's own message names what is missing.
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.body == null && request.routeOptions.schema?.body) request.body = {};
    // One check for every JSON body, query and path: text no column may hold is a 400.
    const problem =
      textProblem(request.params) ?? textProblem(request.query) ?? textProblem(request.body);
    done(problem ? new Invalid(problem) : undefined);
  });

  registerHealth(app, {
    database: () => sql`select 1`.execute(db),
    ...(limits ? { redis: () => limits.ping() } : {}),
    media: () => app.media.store.check(),
  });
  await registerMetrics(app, config, () => app.realtime.io.of('/').sockets.size);
  await registerApiDocs(app);

  await app.register(authPublicRoutes);
  await app.register(pushPublicRoutes);
  // Every member route in one context: its hook authenticates once, before validation.
  await app.register(async (members) => {
    members.addHook('preValidation', requireMember);
    await members.register(authMemberRoutes);
    await members.register(accountRoutes);
    await members.register(userRoutes);
    await members.register(friendRoutes);
    await members.register(notificationRoutes);
    await members.register(galleryRoutes);
    await members.register(pushRoutes);
    await members.register(blockRoutes);
    await members.register(reportRoutes);
    await members.register(moderationRoutes);
  });

  registerUploads(app, app.media.store);
  const hasApp = await registerApp(app, config.staticDir);

  app.setNotFoundHandler(async (request, reply) => {
    if (hasApp && wantsAppShell(request)) return sendIndex(reply, await profileDocument(request));
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
