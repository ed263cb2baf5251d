/** A count with its word agreeing in number (DECISIONS "Turn 2"): `1 Friend`, `0 Friends`, `2 Friends`. */
export function countOf(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}
