/**
 * Where a member still appears: every text column of every table the database holds, read from
 * the database's own catalogue, so a table added later is searched without anyone listing it.
 */
import { sql } from 'kysely';
import type { Db, Dialect } from '../src/db/index.ts';

interface TextColumn {
  table: string;
  column: string;
}

/** Every column that can hold text, in every table (SQLite's full-text tables and theirs too). */
async function textColumns(db: Db, dialect: Dialect): Promise<TextColumn[]> {
  if (dialect === 'postgres') {
    const { rows } = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = current_schema()
        and data_type in ('text', 'character varying', 'character')
      order by table_name, column_name`.execute(db);
    return rows.map((row) => ({ table: row.table_name, column: row.column_name }));
  }
  const { rows: tables } = await sql<{ name: string }>`
    select name from sqlite_master where type = 'table' and name not like 'sqlite_%'
    order by name`.execute(db);
  const columns: TextColumn[] = [];
  for (const { name } of tables) {
    const { rows } = await sql<{ name: string; type: string }>`
      select name, type from pragma_table_info(${name})`.execute(db);
    for (const column of rows) {
      // Untyped columns (full-text tables, their content tables) hold text as readily as TEXT.
      const type = column.type.toUpperCase();
      if (type === '' || /TEXT|CHAR|CLOB/.test(type))
        columns.push({ table: name, column: column.name });
    }
  }
  return columns;
}

export interface Trace extends TextColumn {
  value: string;
  needle: string;
}

/** Every value of a text column that contains one of `needles`, compared in lower case. */
export async function findTraces(
  db: Db,
  dialect: Dialect,
  needles: readonly string[],
): Promise<Trace[]> {
  const traces: Trace[] = [];
  for (const { table, column } of await textColumns(db, dialect)) {
    for (const needle of needles) {
      const value = sql.ref(column);
      const found =
        dialect === 'postgres'
          ? sql<{ value: string }>`select ${value}::text as value from ${sql.table(table)}
              where position(${needle.toLowerCase()} in lower(${value}::text)) > 0`
          : sql<{ value: string }>`select cast(${value} as text) as value from ${sql.table(table)}
              where instr(lower(cast(${value} as text)), ${needle.toLowerCase()}) > 0`;
      const { rows } = await found.execute(db);
      for (const row of rows) traces.push({ table, column, value: row.value, needle });
    }
  }
  return traces;
}
