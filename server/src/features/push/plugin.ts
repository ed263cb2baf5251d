import fp from 'fastify-plugin';
import type { RelayStore } from '../../plugins/relay.ts';
import * as push from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** What the push calls and the relay need: the database, presence and picture URLs. */
    push: push.PushDeps;
  }
}

/** The push data the member routes and the relay namespace share. */
export const pushPlugin = fp(
  (app, _options, done) => {
    app.decorate('push', {
      db: app.db,
      dialect: app.dialect,
      // Unknown presence counts as "no open tab": a repeated notification beats a missed one.
      online: (userIds) =>
        app.presence.onlineAmong(userIds).catch((error: unknown) => {
          app.log.warn({ err: error }, 'presence lookup for push failed');
          return new Set<string>();
        }),
      mediaUrl: app.media.url,
    } satisfies push.PushDeps);
    done();
  },
  { name: 'orbit-push', dependencies: ['orbit-database', 'orbit-media', 'orbit-presence'] },
);

/** The relay namespace's answers, from the push data. */
export function relayStore(deps: push.PushDeps): RelayStore {
  return {
    isVapidKey: push.isP256PublicKey,
    rememberVapidKey: (key) => push.rememberVapidKey(deps, key),
    catchUp: (after, limit) => push.catchUp(deps, after, limit),
    subscriptionGone: (endpoint) => push.subscriptionGone(deps, endpoint),
    takeLease: (relayId, ttlMs) => push.takeRelayLease(deps, relayId, ttlMs),
    reportProgress: (relayId, progress) => push.reportRelayProgress(deps, relayId, progress),
    liveEvent: (recipientId, notification) => push.liveEvent(deps, recipientId, notification),
    latestEventId: () => push.latestEventId(deps),
  };
}
