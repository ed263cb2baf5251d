/** Lists and counts as any server sends them (docs/architecture.md "Reading what comes in"). */
import { isObject } from './common.ts';

/** A count as sent: a finite number, not below zero; else undefined. */
export const countIn = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;

/** A list: a plain array, or wrapped under one of `keys`, `results` or `items`. */
export function readList(body: unknown, ...keys: string[]): unknown[] {
  if (Array.isArray(body)) return body;
  if (isObject(body)) {
    for (const key of [...keys, 'results', 'items']) {
      const value = body[key];
      if (Array.isArray(value)) return value;
    }
  }
  return [];
}
