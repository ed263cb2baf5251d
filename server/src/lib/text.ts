import { textFault } from '../../../src/contracts/text.ts';

/** Deeper than any body the API takes; deeper values are left to the route's schema. */
const MAX_DEPTH = 8;

/** The first problem (docs/product.md "Errors") with the text in `value` (a string, or strings inside objects and arrays), named by its field; null when there is none. */
export function textProblem(value: unknown, field = 'Text', depth = 0): string | null {
  if (typeof value === 'string') return textFault(value, field);
  if (depth >= MAX_DEPTH || value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const problem = textProblem(item, Array.isArray(value) ? field : key, depth + 1);
    if (problem) return problem;
  }
  return null;
}
