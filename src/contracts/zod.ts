/**
 * zod as every contract uses it. Without the just-in-time parsers: they probe with
 * `new Function`, which the page's Content-Security-Policy forbids and reports even when the
 * probe's failure is caught (docs/architecture.md "Server plugins and HTTP contracts").
 */
import * as z from 'zod/mini';

z.config({ jitless: true });

export { z };

/** An object shape whose fields, `names`, all take one `schema`: a set of counts or of flags. */
export function fieldsOf<const K extends string, S extends z.core.$ZodType>(
  names: readonly K[],
  schema: S,
): Record<K, S> {
  return Object.fromEntries(names.map((name) => [name, schema])) as Record<K, S>;
}
