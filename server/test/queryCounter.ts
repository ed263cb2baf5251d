/**
 * Counts the statements an app sends to its database: pass `counter.onQuery` to buildTestApp, then
 * wrap the call under test in `counter.during(...)`. Every statement counts, transaction control
 * (begin, commit, rollback) included, on both databases.
 */
import type { LogEvent } from 'kysely';

export interface CountedStatement {
  sql: string;
  /** begin / commit / rollback / savepoint: sent by Kysely around a transaction. */
  control: boolean;
}

export interface QueryCounter {
  /** Give this to buildTestApp({ onQuery }). */
  onQuery: (event: LogEvent) => void;
  /** Runs `work` and answers its result with the statements sent while it ran. */
  during<T>(work: () => Promise<T>): Promise<{ result: T; statements: CountedStatement[] }>;
}

const CONTROL = /^\s*(begin|commit|rollback|savepoint|release)\b/i;

export function queryCounter(): QueryCounter {
  let current: CountedStatement[] | undefined;
  return {
    onQuery(event) {
      const sql = event.query.sql;
      current?.push({ sql, control: CONTROL.test(sql) });
    },
    async during(work) {
      if (current) throw new Error('queryCounter: one count at a time');
      const statements: CountedStatement[] = [];
      current = statements;
      try {
        const result = await work();
        return { result, statements };
      } finally {
        current = undefined;
      }
    },
  };
}

/** Statements that read or write the table (as Kysely quotes it: "table"). */
export function touching(statements: readonly CountedStatement[], table: string) {
  return statements.filter((statement) => statement.sql.includes(`"${table}"`));
}

/** The statements without the session lookup that authenticates a member call. */
export function afterAuthentication(statements: readonly CountedStatement[]) {
  return statements.filter((statement) => !/from "sessions"/i.test(statement.sql));
}
