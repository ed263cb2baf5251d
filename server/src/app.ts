import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import {
  type ZodTypeProvider,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Db, Dialect } from './db/index.ts';
import { accountRoutes } from './features/account/routes.ts';
import { attemptsPlugin } from './features/auth/attempts.ts';
import { authMemberRoutes, authPublicRoutes } from './features/auth/routes.ts';
import { blockRoutes } from './features/blocks/routes.ts';
import { friendEventsPlugin } from './features/friends/events.ts';
import { friendRoutes } from './features/friends/routes.ts';
import { galleryEventsPlugin } from './features/gallery/events.ts';
import { galleryRoutes } from './features/gallery/routes.ts';
import { visibleImage } from './features/gallery/service.ts';
import { moderationRoutes, reportRoutes } from './features/moderation/routes.ts';
import { notificationEventsPlugin } from './features/notifications/events.ts';
import { notificationRoutes } from './features/notifications/routes.ts';
import { pushPlugin, relayStore } from './features/push/plugin.ts';
import { pushPublicRoutes, pushRoutes } from './features/push/routes.ts';
import { profileDocument } from './features/users/page.ts';
import { userRoutes } from './features/users/routes.ts';
import { loggerOptions, requestLog } from './lib/logger.ts';
import { proxyTrust } from './lib/proxy.ts';
import { visibleMemberById } from './members/blocks.ts';
import { authPlugin, requireMember } from './plugins/auth.ts';
import { cachingPlugin } from './plugins/caching.ts';
import { databasePlugin } from './plugins/database.ts';
import { docsPlugin } from './plugins/docs.ts';
import { errorsPlugin, frameworkErrors } from './plugins/errors.ts';
import { healthPlugin } from './plugins/health.ts';
import { httpPlugin } from './plugins/http.ts';
import { idempotencyPlugin } from './plugins/idempotency.ts';
import { mediaPlugin } from './plugins/media.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { presencePlugin } from './plugins/presence.ts';
import { realtimePlugin } from './plugins/realtime.ts';
import { redisPlugin } from './plugins/redis.ts';
import { relayPlugin } from './plugins/relay.ts';
import { securityPlugin } from './plugins/security.ts';
import { staticPlugin } from './plugins/static.ts';
import { uploadsPlugin } from './plugins/uploads.ts';
import { validationPlugin } from './plugins/validation.ts';
import { watchingPlugin } from './plugins/watching.ts';

export interface BuildOptions {
  /** Use this database instead of opening one from the config (tests share one per file). */
  db?: { db: Db; dialect: Dialect };
  /** Write the log here instead of stdout (tests read what was logged). */
  logStream?: { write(line: string): void };
  /** Hears of every route as it is added (the fuzz suite generates requests for each). */
  onRoute?: (route: RouteOptions) => void;
}

/**
 * The whole server as a Fastify instance; it never listens (main.ts and tests decide that). The
 * shared pieces are named plugins, registered in this order and each declaring the plugins it
 * needs before it (`fastify-plugin`'s `dependencies`); the route plugins come after and read
 * what they need from the app.
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

  await app.register(errorsPlugin);
  await app.register(databasePlugin, { config, db: options.db });
  await app.register(redisPlugin);
  await app.register(mediaPlugin);
  await app.register(uploadsPlugin);
  await app.register(cachingPlugin);
  await app.register(idempotencyPlugin);
  await app.register(httpPlugin);
  await app.register(securityPlugin, { trust });
  await app.register(authPlugin);
  await app.register(attemptsPlugin);
  await app.register(realtimePlugin, { trust });
  await app.register(presencePlugin);
  await app.register(watchingPlugin, {
    // docs/decisions.md "A block stops live events at once, on every node": one statement each.
    watchedOwner: async (viewerId, kind, id) =>
      kind === 'gallery'
        ? (await visibleMemberById(app.db, viewerId, id))?.id
        : (await visibleImage({ db: app.db }, viewerId, id))?.owner_id,
  });
  await app.register(pushPlugin);
  await app.register(relayPlugin, (parent) => ({ store: relayStore(parent.push) }));
  await app.register(notificationEventsPlugin);
  await app.register(friendEventsPlugin);
  await app.register(galleryEventsPlugin);
  await app.register(validationPlugin);
  await app.register(healthPlugin);
  await app.register(metricsPlugin);
  await app.register(docsPlugin);

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
  await app.register(staticPlugin, { document: profileDocument });

  return app;
}
