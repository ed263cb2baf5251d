import fs from 'node:fs';
import path from 'node:path';
import {
  Kysely,
  type LogEvent,
  PostgresDialect,
  SqliteDialect,
  type SqliteDatabase,
  type SqliteStatement,
} from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';
import { SQLITE_UNIQUE_CODES, type SqliteConnection, openSqlite } from './sqlite.ts';

export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseOptions {
  databaseUrl: string | undefined;
  sqlitePath: string;
  /** Told when PostgreSQL drops an idle pooled connection (a restart, an administrator). */
  onIdleError?: (error: Error) => void;
  /** Told of every statement run, transaction control included (tests count them). */
  log?: (event: LogEvent) => void;
}

/** How long opening a PostgreSQL connection may take, handshake included. */
export const CONNECT_TIMEOUT_MS = 5_000;

/** SQLite file under the data directory by default; PostgreSQL when DATABASE_URL is set. */
export function createDatabase(options: DatabaseOptions): { db: Db; dialect: Dialect } {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      // A server that takes the connection and never answers (a hung host, a lost route) fails
      // the request after this long instead of holding it open for good.
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    // Without a listener, an idle client's error is re-emitted on the pool as an unhandled 'error'
    // event and ends the process. The pool has already discarded that client; the next query
    // opens a new one.
    pool.on('error', (error) => options.onIdleError?.(withoutClient(error)));
    // A client in use has no pool listener: when PostgreSQL goes away (a crash, a restart) its
    // 'error' event would end the process too. Its query fails with that error and answers a
    // 500, and the pool drops the client when it is released, so there is nothing more to do.
    pool.on('connect', (client) => {
      client.on('error', () => undefined);
    });
    return {
      db: new Kysely<Database>({
        dialect: new PostgresDialect({ pool }),
        ...(options.log ? { log: options.log } : {}),
      }),
      dialect: 'postgres',
    };
  }
  fs.mkdirSync(path.dirname(options.sqlitePath), { recursive: true });
  const sqlite = openSqlite(options.sqlitePath);
  sqlite.exec('PRAGMA journal_mode = WAL');
  sqlite.exec('PRAGMA foreign_keys = ON');
  sqlite.exec('PRAGMA synchronous = NORMAL');
  sqlite.exec('PRAGMA busy_timeout = 5000');
  return {
    db: new Kysely<Database>({
      dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
      ...(options.log ? { log: options.log } : {}),
    }),
    dialect: 'sqlite',
  };
}

/**
 * The database is there but could not take the statement in time: every pooled PostgreSQL
 * connection stayed in use for CONNECT_TIMEOUT_MS, or SQLite's file stayed locked for its busy
 * timeout. Worth trying again shortly, unlike a statement that failed.
 */
export function isDatabaseBusy(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  // node:sqlite names its result code in `errcode` (SQLITE_BUSY is 5, extended codes add bits
  // above 255); better-sqlite3 in `code`, as SQLITE_BUSY or SQLITE_BUSY_SNAPSHOT and the like.
  if (typeof errcode === 'number') return (errcode & 0xff) === 5;
  if (typeof code === 'string') return code.startsWith('SQLITE_BUSY');
  return (
    error.message === 'timeout exceeded when trying to connect' ||
    error.message === 'Connection terminated due to connection timeout'
  );
}

/** The error without the client pg-pool attaches to it (its whole state, in every log line). */
function withoutClient(error: Error): Error {
  if (!('client' in error)) return error;
  const copy = new Error(error.message);
  copy.name = error.name;
  if (error.stack) copy.stack = error.stack;
  return copy;
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew; SQLite can reuse a prepared statement, which is most of the
 * cost of a small query. Statements are kept per SQL text, the oldest dropped past the limit.
 * (Kysely runs one query at a time on this connection, so a statement is never used twice at once.)
 */
function withStatementCache(sqlite: SqliteConnection): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (statement) {
        cache.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      }
      cache.set(sql, statement);
      return statement;
    },
  };
}

/** Unique-constraint violations look different per driver; services only need to know it happened. */
export function isUniqueViolation(error: unknown): error is Error {
  if (!(error instanceof Error)) return false;
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  return (
    code === '23505' || SQLITE_UNIQUE_CODES.includes(code) || SQLITE_UNIQUE_CODES.includes(errcode)
  );
}

/** Which unique column a violation names, read from the driver's message or constraint. */
export function violatedColumn(error: Error): string {
  const detail = error as { constraint?: string; detail?: string };
  return `${detail.constraint ?? ''} ${detail.detail ?? ''} ${error.message}`;
}
