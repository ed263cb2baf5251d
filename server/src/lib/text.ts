/**
 * What no text the server stores may hold (docs/product.md "Errors"): C0 control characters other
 * than tab, line feed and carriage return (a NUL byte is refused by PostgreSQL), DEL, and lone
 * UTF-16 surrogates (half a character, which neither database stores faithfully).
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Deeper than any body the API takes; deeper values are left to the route's schema. */
const MAX_DEPTH = 8;

/** The first problem with the text in `value` (a string, or strings inside objects and arrays), named by its field; null when there is none. */
export function textProblem(value: unknown, field = 'Text', depth = 0): string | null {
  if (typeof value === 'string') {
    if (CONTROL.test(value)) return `${field} can’t contain control characters.`;
    if (LONE_SURROGATE.test(value)) return `${field} contains a broken character.`;
    return null;
  }
  if (depth >= MAX_DEPTH || value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const problem = textProblem(item, Array.isArray(value) ? field : key, depth + 1);
    if (problem) return problem;
  }
  return null;
}
