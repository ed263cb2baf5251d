import { z } from '../../src/contracts/zod.ts';
import { RelayCatchUpAnswer, RelayEvent } from '../../src/contracts/push.ts';
import { isEventId } from '../../src/contracts/pushPayload.ts';

export type ParsedEvent =
  { ok: true; event: RelayEvent } | { ok: false; id: number | undefined; problem: string };

const problemOf = (error: z.core.$ZodError) =>
  error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');

/** An event off the wire: checked, with its id even when the rest does not fit. */
export function parseEvent(raw: unknown): ParsedEvent {
  const parsed = RelayEvent.safeParse(raw);
  if (parsed.success) return { ok: true, event: parsed.data };
  const id = (raw as { payload?: { id?: unknown } } | null)?.payload?.id;
  return { ok: false, id: isEventId(id) ? id : undefined, problem: problemOf(parsed.error) };
}

/** The id of a parsed event, when it has one. */
export const eventIdOf = (parsed: ParsedEvent): number | undefined =>
  parsed.ok ? parsed.event.payload.id : parsed.id;

/**
 * A catch-up page as the relay reads it: the answer's contract with each event still unchecked,
 * so that an event that does not fit is dropped alone (see {@link parseEvent}).
 */
export const CatchUpPageSchema = z.extend(RelayCatchUpAnswer, {
  events: z.array(z.unknown()),
});

/** An answer of the server checked against its contract; `otherwise(problem)` when it does not fit. */
export function answerOf<T>(
  schema: z.core.$ZodType<T>,
  raw: unknown,
  otherwise: (problem: string) => T,
): T {
  const parsed = z.safeParse(schema, raw);
  return parsed.success ? parsed.data : otherwise(problemOf(parsed.error));
}

/** The same device once per event, whatever the server sent. */
export function distinctDevices(event: RelayEvent): RelayEvent['subscriptions'] {
  const seen = new Map(event.subscriptions.map((device) => [device.endpoint, device]));
  return [...seen.values()];
}

/** A push endpoint is a capability URL: logs name only its service. */
export function serviceOf(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return 'invalid endpoint';
  }
}
