/**
 * One table's columns beside another's in a joined row: selected under a prefix (`session_id` for
 * `sessions.id`), then taken back out of the row as an object of their own. The prefix must not
 * begin any other column of the row.
 */

type Aliased<T extends string, P extends string, C extends string> = C extends string
  ? `${T}.${C} as ${P}${C}`
  : never;

/** The select list for `columns` of `table`, each named with `prefix` before it. */
export function prefixedColumns<T extends string, P extends string, C extends string>(
  table: T,
  prefix: P,
  columns: readonly C[],
): Aliased<T, P, C>[] {
  return columns.map((column) => `${table}.${column} as ${prefix}${column}` as Aliased<T, P, C>);
}

type Taken<R, P extends string> = {
  [K in keyof R as K extends `${P}${infer C}` ? C : never]: R[K];
};
type Left<R, P extends string> = {
  [K in keyof R as K extends `${P}${string}` ? never : K]: R[K];
};

/** The row without the prefixed columns, and those columns by their own names. */
export function takePrefixed<R extends object, P extends string>(
  row: R,
  prefix: P,
): [Left<R, P>, Taken<R, P>] {
  const left: Record<string, unknown> = {};
  const taken: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (key.startsWith(prefix)) taken[key.slice(prefix.length)] = value;
    else left[key] = value;
  }
  return [left as Left<R, P>, taken as Taken<R, P>];
}
