import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { type Db, type Dialect, createDatabase } from '../db/index.ts';
import { migrateToLatest } from '../db/migrations.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    dialect: Dialect;
    config: Config;
  }
}

export interface DatabaseOptions {
  config: Config;
  /** Use this database instead of opening one from the config (tests share one per file). */
  db?: { db: Db; dialect: Dialect } | undefined;
}

/** The settings and the migrated database, for every plugin and route after it. */
export const databasePlugin = fp<DatabaseOptions>(
  async (app, { config, db: given }) => {
    const { db, dialect } =
      given ??
      createDatabase({
        ...config,
        onIdleError: (error) => app.log.warn({ err: error }, 'an idle database connection failed'),
      });
    if (!given) app.addHook('onClose', () => db.destroy());
    await migrateToLatest(db);
    app.decorate('db', db);
    app.decorate('dialect', dialect);
    app.decorate('config', config);
  },
  { name: 'orbit-database' },
);
