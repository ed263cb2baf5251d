/**
 * `npm run moderator -- add|remove|list|unsuspend <username>` (docs/product.md "Moderation"): who
 * moderates, and lifting a suspension, on the server's machine. It reads the server's own settings
 * (DATABASE_URL or DATA_DIR, REDIS_URL, REDIS_PREFIX), so it changes the database the server uses.
 * With REDIS_URL every running node is told at once, as a profile edit tells them, so the member's
 * next call sees the change; without it the one node sees it within SESSION_CACHE_TTL_MS (the
 * moderation calls themselves read the database every time).
 */
import type { Revocation } from './lib/sessionCache.ts';

const USAGE = `Usage: npm run moderator -- <command>

  add <username>        make the member a moderator
  remove <username>     make the member no longer a moderator
  unsuspend <username>  lift the member's suspension: they can log in again
  list                  moderators and suspended members`;

/** Tells every running node to read the member again; a failure only delays what they see. */
async function tellServers(url: string | undefined, prefix: string, userId: string) {
  if (!url) return;
  const [{ Redis }, { revocationChannel }] = await Promise.all([
    import('ioredis'),
    import('./lib/sessionCache.ts'),
  ]);
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 3_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const revocation: Revocation = { members: [userId] };
    await client.publish(revocationChannel(prefix), JSON.stringify(revocation));
  } catch (error) {
    console.warn(
      `Could not tell the running servers through Redis (${(error as Error).message}); ` +
        'they see the change within SESSION_CACHE_TTL_MS.',
    );
  } finally {
    client.disconnect();
  }
}

async function main(args: string[]): Promise<number> {
  const [command, username, ...rest] = args;
  const needsName = command === 'add' || command === 'remove' || command === 'unsuspend';
  if (!(needsName && username && rest.length === 0) && !(command === 'list' && !username)) {
    console.error(USAGE);
    return 2;
  }
  // Loaded once the command is known: a usage error answers at once.
  const [{ loadConfig }, { createDatabase }, { migrateToLatest }, moderation] = await Promise.all([
    import('./config.ts'),
    import('./db/index.ts'),
    import('./db/migrations.ts'),
    import('./features/moderation/operator.ts'),
  ]);
  const config = loadConfig();
  const { db } = createDatabase(config);
  try {
    await migrateToLatest(db);
    const deps = { db };
    if (command === 'list') {
      const members = await moderation.moderatorsAndSuspended(deps);
      const moderators = members.filter((member) => member.is_moderator === 1);
      const suspended = members.filter((member) => member.suspended_at !== null);
      console.log(
        moderators.length
          ? `Moderators:\n${moderators.map((m) => `  ${m.username} <${m.email}>`).join('\n')}`
          : 'No moderators.',
      );
      if (suspended.length)
        console.log(
          `Suspended:\n${suspended
            .map((m) => `  ${m.username} since ${m.suspended_at ?? ''}: ${m.suspension_reason}`)
            .join('\n')}`,
        );
      return 0;
    }
    const name = username ?? '';
    const member =
      command === 'unsuspend'
        ? await moderation.unsuspend(deps, name)
        : await moderation.setModerator(deps, name, command === 'add');
    if (!member) {
      console.error(`No member is called ${name}.`);
      return 1;
    }
    await tellServers(config.redisUrl, config.redisPrefix, member.id);
    console.log(
      command === 'add'
        ? `${member.username} is a moderator.`
        : command === 'remove'
          ? `${member.username} is no longer a moderator.`
          : member.suspended_at === null
            ? `${member.username} was not suspended; nothing changed.`
            : `${member.username} is no longer suspended and can log in again.`,
    );
    return 0;
  } finally {
    await db.destroy();
  }
}

process.exitCode = await main(process.argv.slice(2));
