/**
 * What no text the server stores may hold (docs/product.md "Errors"): C0 control characters other
 * than tab, line feed and carriage return (a NUL byte is refused by PostgreSQL), DEL, and lone
 * UTF-16 surrogates (half a character, which neither database stores faithfully).
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The problem with one text, named by its field; null when there is none. */
export function textFault(value: string, field: string): string | null {
  if (CONTROL.test(value)) return `${field} can’t contain control characters.`;
  if (LONE_SURROGATE.test(value)) return `${field} contains a broken character.`;
  return null;
}

/**
 * The problem with a path that may be percent-encoded once more (an image's address as a
 * reference): what it decodes to must be text a column can hold too. Text that does not decode is
 * left as it is.
 */
export function encodedTextFault(value: string, field: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return null;
  }
  return textFault(decoded, field);
}
