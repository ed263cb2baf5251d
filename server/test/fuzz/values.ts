/**
 * The raw material of the fuzz suite: strings and numbers that break naive code (control
 * characters, half characters, the last code point, direction overrides, very long text, numbers
 * at the edges of 32-bit, 53-bit and floating-point integers) and JSON of any shape.
 */
import fc from 'fast-check';

/** Strings no column may hold, or that look like something else. */
const NASTY_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0001\u0002\u0003',
  '\u001b[2J',
  '\u007f',
  '\t\n\r',
  '\ud800',
  'x\udc00',
  '\udc00\ud800',
  '\u{10ffff}',
  'z\u{10ffff}',
  '\uffff',
  '\ufeff',
  '\u202etxt.exe',
  '\u202d\u202c\u2066\u2069',
  '\u200b\u200c\u200d',
  'e\u0301\u0301\u0301',
  '👩‍👩‍👧‍👦',
  '🚀'.repeat(50),
  '../../../etc/passwd',
  '..\\..\\windows',
  '%00',
  '%',
  '%zz',
  '%2e%2e%2f',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  '${7*7}{{7*7}}',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '0x10',
  '1e309',
  '9007199254740993',
  '2147483648',
  '-2147483649',
  '18446744073709551616',
  'true',
  '[]',
  '{}',
  'a'.repeat(101),
  'a'.repeat(301),
  'a'.repeat(10_001),
];

/** Numbers at the edges: 32-bit and 53-bit integers, floats, zero's sign, the largest double. */
const EDGE_NUMBERS: readonly number[] = [
  0,
  -0,
  1,
  -1,
  0.5,
  -0.5,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31),
  -(2 ** 31) - 1,
  2 ** 32,
  2 ** 53 - 1,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  1e21,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  Number.MIN_VALUE,
  Number.EPSILON,
];

/** Ids in every shape an id field may be sent: numbers as text, UUID-like, huge, negative, empty. */
const ID_LIKE: readonly string[] = [
  '0',
  '1',
  '-1',
  '2147483647',
  '2147483648',
  '9007199254740992',
  '99999999999999999999',
  '1.5',
  '1e3',
  ' 1',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
];

/** A string made of pieces that parsers trip on, or one of the nasty strings as it is. */
const nastyString = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(...NASTY_STRINGS),
    fc
      .array(
        fc.oneof(
          fc.constantFrom(...NASTY_STRINGS.slice(0, 30)),
          fc.string({ maxLength: 8 }),
          fc.string({ unit: 'binary', maxLength: 8 }),
        ),
        { minLength: 1, maxLength: 5 },
      )
      .map((parts) => parts.join('')),
  );

/** Text up to `maxLength`, sometimes just past it, sometimes nasty, sometimes from `good` when given. */
export function anyString(
  maxLength = 100,
  good: fc.Arbitrary<string> | undefined = undefined,
): fc.Arbitrary<string> {
  const within = Math.min(maxLength, 40);
  const arbitraries: fc.WeightedArbitrary<string>[] = [
    { arbitrary: fc.string({ maxLength: within }), weight: 3 },
    { arbitrary: fc.string({ unit: 'grapheme', maxLength: within }), weight: 1 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: within }), weight: 1 },
    { arbitrary: nastyString(), weight: 3 },
    { arbitrary: fc.constant('x'.repeat(maxLength)), weight: 1 },
    { arbitrary: fc.constant('x'.repeat(maxLength + 1)), weight: 1 },
    { arbitrary: fc.constantFrom(...ID_LIKE), weight: 1 },
  ];
  if (good) arbitraries.push({ arbitrary: good, weight: 8 });
  return fc.oneof(...arbitraries);
}

export const edgeNumber = (): fc.Arbitrary<number> =>
  fc.oneof(
    fc.constantFrom(...EDGE_NUMBERS),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
  );

/** Any JSON value, nesting included: what a wrong type looks like. */
export const anyJson = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 4 },
    { arbitrary: edgeNumber(), weight: 1 },
    { arbitrary: nastyString(), weight: 1 },
    { arbitrary: deepNesting(), weight: 1 },
  );

/** Arrays or objects nested far deeper than any body the API takes. */
export const deepNesting = (): fc.Arbitrary<unknown> =>
  fc.tuple(fc.integer({ min: 10, max: 2_000 }), fc.boolean()).map(([depth, arrays]) => {
    let value: unknown = 'deep';
    for (let level = 0; level < depth; level += 1) value = arrays ? [value] : { a: value };
    return value;
  });

/**
 * Percent-encodes like encodeURIComponent, but never throws: half a character is written as the
 * three bytes a lenient encoder would produce (not UTF-8), so the server sees it too.
 */
export function encodeLoose(value: string): string {
  let out = '';
  for (const piece of value.match(/[\ud800-\udbff][\udc00-\udfff]|[\s\S]/g) ?? []) {
    const unit = piece.charCodeAt(0);
    if (piece.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
      out += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    } else {
      out += encodeURIComponent(piece);
    }
  }
  return out;
}
