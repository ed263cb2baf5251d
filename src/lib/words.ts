/** A count with its word agreeing in number (docs/decisions.md "Counters agree in number"): `1 Friend`, `0 Friends`, `2 Friends`. */
export function countOf(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}
