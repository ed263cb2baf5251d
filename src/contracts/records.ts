/**
 * Checks for the records the app writes itself and for the push payload: what the service worker
 * and the first page read, declared once here without a schema library, so neither loads one
 * (docs/architecture.md "Code splitting and first paint"). Server answers keep their schemas.
 */

/** Whether a value is a `T`. */
export type Check<T> = (value: unknown) => value is T;
type Fields = Record<string, Check<unknown>>;
type RecordOf<F extends Fields> = { [K in keyof F]: F[K] extends Check<infer T> ? T : never };
/** The type a check accepts. */
export type Checked<C> = C extends Check<infer T> ? T : never;

const fieldsOf = new WeakMap<Check<unknown>, Fields>();

/** An object whose every named field passes its check; other fields are let be. */
export function record<F extends Fields>(fields: F): Check<RecordOf<F>> {
  const checks = Object.entries(fields);
  const check = (value: unknown): value is RecordOf<F> =>
    typeof value === 'object' &&
    value !== null &&
    checks.every(([name, field]) => field((value as Record<string, unknown>)[name]));
  fieldsOf.set(check, fields);
  return check;
}

/**
 * Where `value` fails `check`: the dotted path of the first field of a record that does not fit
 * (`actor.username`), '' for the value itself, null when it fits.
 */
export function mismatch(check: Check<unknown>, value: unknown): string | null {
  if (check(value)) return null;
  const fields = fieldsOf.get(check);
  if (!fields || typeof value !== 'object' || value === null) return '';
  for (const [name, field] of Object.entries(fields)) {
    const inner = mismatch(field, (value as Record<string, unknown>)[name]);
    if (inner !== null) return inner ? `${name}.${inner}` : name;
  }
  return '';
}

/** The value when it passes `check`, else null: how a stored record is read. */
export const readWith =
  <T>(check: Check<T>) =>
  (value: unknown): T | null =>
    check(value) ? value : null;

export const text = (value: unknown): value is string => typeof value === 'string';
export const nonEmptyText = (value: unknown): value is string => text(value) && value.length > 0;
export const finite = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);
export const nonNegative = (value: unknown): value is number => finite(value) && value >= 0;

/** A whole number from `min` to `max`. */
export const integerIn =
  (min: number, max: number) =>
  (value: unknown): value is number =>
    Number.isInteger(value) && (value as number) >= min && (value as number) <= max;

/** One of `values`. */
export const oneOf =
  <const V extends readonly string[]>(values: V) =>
  (value: unknown): value is V[number] =>
    values.includes(value as string);

/** Text that `pattern` matches. */
export const matching =
  (pattern: RegExp) =>
  (value: unknown): value is string =>
    text(value) && pattern.test(value);
