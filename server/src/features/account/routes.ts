import type { FastifyInstance, FastifyReply } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import * as endpoints from '../../../../src/contracts/endpoints.ts';
import { route } from '../../lib/route.ts';
import { CACHE_CONTROL } from '../../lib/cacheControl.ts';
import { clearSessionCookie } from '../../lib/sessionCookie.ts';
import * as account from './service.ts';

function accountDeps(app: FastifyInstance): Omit<account.AccountDeps, 'log'> {
  return {
    ...app.sessions,
    attempts: app.attempts,
    notifications: app.notificationEvents,
    publish: app.friendEvents.toPair,
    disconnectMembers: (userIds) => app.realtime.disconnectMembers(userIds),
    relayMembersGone: (userIds) => app.relay.membersGone(userIds),
  };
}

/**
 * Leaving (docs/product.md "Leaving"): deleting one's account and downloading one's data. Member
 * routes: registered inside the member context (`requireMember`), always about the member signed in.
 */
export const accountRoutes: FastifyPluginCallbackZod = (app, _options, done) => {
  const deps = accountDeps(app);

  route(app, endpoints.accountDelete, {}, async (request, reply) => {
    await account.deleteAccount({ ...deps, log: request.log }, request.member, request.body);
    clearSessionCookie(reply, app.config);
    return { ok: true as const };
  });

  route(
    app,
    endpoints.accountExport,
    {
      // A download is started by a GET alone; a HEAD would take the member's turn for nothing.
      exposeHeadRoute: false,
      // Pictures are compressed already and the text is deflated inside the archive.
      compress: false,
    },
    async (request, reply) => {
      const download = await account.startDownload(
        { ...deps, log: request.log },
        request.member.user,
      );
      // A stream is sent as it is, past the route's typed reply (the schema documents it).
      return (
        (reply as FastifyReply)
          .type('application/zip')
          .header('Content-Disposition', `attachment; filename="${download.fileName}"`)
          .header('Cache-Control', CACHE_CONTROL.never)
          // A proxy passes it on as it comes instead of spooling it to disk, and so slows the
          // archive to the member's pace.
          .header('X-Accel-Buffering', 'no')
          .send(download.stream)
      );
    },
  );
  done();
};
