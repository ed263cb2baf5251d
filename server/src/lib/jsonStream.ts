/**
 * JSON written a piece at a time: an object whose fields may be async iterables, each written as
 * an array item by item, so a list of any length is never held whole as text. The text is indented as
 * `JSON.stringify(value, null, 2)` would indent it.
 */

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator] === 'function';

/** `value` as pretty JSON, every line after the first indented by `indent`. */
function pretty(value: unknown, indent: string): string {
  return (JSON.stringify(value, null, 2) ?? 'null').replaceAll('\n', `\n${indent}`);
}

/**
 * Chunks of the JSON text of `fields`, in order; an array or async iterable field is written as an
 * array, an item a chunk.
 */
export async function* jsonChunks(fields: Record<string, unknown>): AsyncGenerator<string> {
  const names = Object.keys(fields);
  yield '{';
  for (const [index, name] of names.entries()) {
    const value = fields[name];
    yield `\n  ${JSON.stringify(name)}: `;
    if (isAsyncIterable(value) || Array.isArray(value)) {
      let first = true;
      for await (const item of value) {
        yield `${first ? '[' : ','}\n    ${pretty(item, '    ')}`;
        first = false;
      }
      yield first ? '[]' : '\n  ]';
    } else {
      yield pretty(value, '  ');
    }
    if (index < names.length - 1) yield ',';
  }
  yield names.length > 0 ? '\n}\n' : '}\n';
}
