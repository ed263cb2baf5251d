/**
 * Values for a JSON Schema (as zod's toJSONSchema writes the route contracts): mostly values that
 * nearly fit, with fields missing or added, wrong types, edge numbers and nasty strings, so a case
 * reaches past the schema into the service as often as it stops at it.
 */
import fc from 'fast-check';
import { anyJson, anyString, edgeNumber } from './values.ts';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  maxLength?: number;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  default?: unknown;
}

/** Good values for a field, by its name: real ids, usernames, keys the generator cannot guess. */
export type Hints = (field: string) => fc.Arbitrary<string> | undefined;

const noHints: Hints = () => undefined;

/**
 * A value that fits the schema as far as JSON Schema says (refinements aside), from the hints
 * where there are some: the case that gets past validation into the service.
 */
export function fittingValueFor(
  schema: JsonSchema,
  hints: Hints = noHints,
  field = '',
): fc.Arbitrary<unknown> {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length)
    return fc.oneof(...alternatives.map((s) => fittingValueFor(s, hints, field)));
  if (schema.allOf?.length) return fittingValueFor(schema.allOf[0] ?? {}, hints, field);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, property] of Object.entries(schema.properties ?? {}))
        record[name] = fittingValueFor(property, hints, name);
      return fc.record(record, { requiredKeys: schema.required ?? [] });
    }
    case 'array':
      return fc.array(fittingValueFor(schema.items ?? {}, hints, field), {
        maxLength: Math.min(schema.maxItems ?? 4, 4),
      });
    case 'string':
      return (
        hints(field) ??
        fc.string({
          minLength: schema.minLength ?? 0,
          maxLength: Math.min(schema.maxLength ?? 40, 40),
        })
      );
    case 'integer':
      return fc.integer({ min: schema.minimum ?? 0, max: schema.maximum ?? 1000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? 0, max: schema.maximum ?? 1000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case undefined:
    default:
      return anyJson();
  }
}

/** A value of the schema's type (or close to it); `field` names it for the hints. */
export function valueFor(
  schema: JsonSchema,
  hints: Hints = noHints,
  field = '',
): fc.Arbitrary<unknown> {
  const fitting = fittingValue(schema, hints, field);
  // One value in eight is of another type altogether: the schema's refusal must read as a 400.
  return fc.oneof({ arbitrary: fitting, weight: 7 }, { arbitrary: anyJson(), weight: 1 });
}

function fittingValue(schema: JsonSchema, hints: Hints, field: string): fc.Arbitrary<unknown> {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => valueFor(s, hints, field)));
  if (schema.allOf?.length) return valueFor(schema.allOf[0] ?? {}, hints, field);
  if (schema.const !== undefined)
    return fc.oneof(fc.constant(schema.const), fc.constant(JSON.stringify(schema.const)));
  if (schema.enum?.length)
    return fc.oneof(
      { arbitrary: fc.constantFrom(...schema.enum), weight: 4 },
      { arbitrary: anyString(20), weight: 1 },
      {
        arbitrary: fc.constantFrom(...schema.enum).map((value) => String(value).toUpperCase()),
        weight: 1,
      },
    );
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object':
      return objectFor(schema, hints);
    case 'array':
      return arrayFor(schema, hints, field);
    case 'string':
      return anyString(schema.maxLength ?? 100, hints(field));
    case 'integer':
    case 'number':
      return numberFor(schema);
    case 'boolean':
      return fc.oneof(fc.boolean(), fc.constantFrom('true', 'false', 0, 1));
    case 'null':
      return fc.constant(null);
    case undefined:
    default:
      return anyJson();
  }
}

function numberFor(schema: JsonSchema): fc.Arbitrary<unknown> {
  const edges: number[] = [];
  for (const bound of [schema.minimum, schema.maximum]) {
    if (bound !== undefined) edges.push(bound - 1, bound, bound + 1);
  }
  return fc.oneof(
    { arbitrary: edgeNumber(), weight: 2 },
    ...(edges.length ? [{ arbitrary: fc.constantFrom(...edges), weight: 2 }] : []),
    {
      arbitrary: fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 }),
      weight: 3,
    },
    { arbitrary: fc.constantFrom('NaN', '1e3', '0x1f', ' 7 ', '', '-0', 'Infinity'), weight: 1 },
  );
}

function arrayFor(schema: JsonSchema, hints: Hints, field: string): fc.Arbitrary<unknown> {
  const items = valueFor(schema.items ?? {}, hints, field);
  const arbitraries: fc.WeightedArbitrary<unknown>[] = [
    { arbitrary: fc.array(items, { maxLength: 6 }), weight: 6 },
    // Past the contract's limit, built from one repeated value so it stays cheap.
    {
      arbitrary: items.map((item) =>
        Array.from({ length: (schema.maxItems ?? 1000) + 1 }, () => item),
      ),
      weight: 1,
    },
  ];
  return fc.oneof(...arbitraries);
}

/** An object with each known field present or not, sometimes with fields the contract does not name. */
function objectFor(schema: JsonSchema, hints: Hints): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) {
    record[name] = valueFor(property, hints, name);
  }
  const known = fc.record(record, { requiredKeys: [...required] });
  // Required fields are there three times in four; otherwise some are left out.
  const withRequired = fc
    .tuple(known, fc.subarray([...required]), fc.nat(3))
    .map(([value, drop, dice]) =>
      dice > 0
        ? value
        : Object.fromEntries(Object.entries(value).filter(([key]) => !drop.includes(key))),
    );
  const extra = fc.dictionary(
    fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom('__proto__', 'constructor', 'prototype'),
    ),
    anyJson(),
    { maxKeys: 3 },
  );
  return fc.oneof(
    { arbitrary: withRequired, weight: 6 },
    {
      arbitrary: fc.tuple(withRequired, extra).map(([value, more]) => ({ ...more, ...value })),
      weight: 2,
    },
    // An array where an object belongs.
    { arbitrary: withRequired.map((value) => [value]), weight: 1 },
  );
}
