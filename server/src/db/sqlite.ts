import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteStatement } from 'kysely';

/** What the app needs of a SQLite connection, whichever driver provides it. */
export interface SqliteConnection {
  /** Runs statements that answer nothing (PRAGMA, BEGIN, DDL). */
  exec(sql: string): void;
  prepare(sql: string): SqliteStatement;
  close(): void;
  /** Which driver: `better-sqlite3` or `node:sqlite`. */
  driver: 'better-sqlite3' | 'node:sqlite';
}

/**
 * better-sqlite3 12 wraps its objects in `node::ObjectWrap`, whose destructor on Node 24 and later
 * asserts that a Node environment is current. When the garbage collector frees a statement at a
 * moment when none is (at exit, between callbacks), the process aborts (SIGABRT). Node's own
 * `node:sqlite` has no such wrapper, so Orbit uses it from Node 24 on and better-sqlite3 before
 * (`node:sqlite` lacks statement column information before 22.16).
 */
export function sqliteDriverFor(nodeVersion = process.versions.node): SqliteConnection['driver'] {
  const major = Number(nodeVersion.split('.')[0]);
  return major >= 24 ? 'node:sqlite' : 'better-sqlite3';
}

export function openSqlite(file: string, driver = sqliteDriverFor()): SqliteConnection {
  if (driver === 'node:sqlite') {
    const { DatabaseSync } = process.getBuiltinModule('node:sqlite') as NodeSqlite;
    const database = new DatabaseSync(file);
    return {
      driver,
      exec: (sql) => database.exec(sql),
      close: () => database.close(),
      prepare(sql) {
        const statement = database.prepare(sql);
        return {
          reader: statement.columns().length > 0,
          all: (parameters) => statement.all(...(parameters as SqlValue[])),
          run: (parameters) => statement.run(...(parameters as SqlValue[])),
          iterate: (parameters) => statement.iterate(...(parameters as SqlValue[])),
        };
      },
    };
  }
  const require = createRequire(import.meta.url);
  const SQLite = require('better-sqlite3') as typeof BetterSqlite3;
  const database = new SQLite(file);
  return {
    driver,
    exec: (sql) => database.exec(sql),
    close: () => database.close(),
    prepare: (sql) => database.prepare(sql),
  };
}

type SqlValue = null | number | bigint | string | NodeJS.ArrayBufferView;

/** The part of `node:sqlite` used here (its types come with @types/node 22.16 and later). */
interface NodeSqlite {
  DatabaseSync: new (file: string) => {
    exec(sql: string): void;
    close(): void;
    prepare(sql: string): {
      columns(): unknown[];
      all(...parameters: SqlValue[]): unknown[];
      run(...parameters: SqlValue[]): {
        changes: number | bigint;
        lastInsertRowid: number | bigint;
      };
      iterate(...parameters: SqlValue[]): IterableIterator<unknown>;
    };
  };
}

/** The unique-constraint codes of both drivers: better-sqlite3's names, node:sqlite's numbers. */
export const SQLITE_UNIQUE_CODES: readonly unknown[] = [
  'SQLITE_CONSTRAINT_UNIQUE',
  'SQLITE_CONSTRAINT_PRIMARYKEY',
  2067,
  1555,
];
