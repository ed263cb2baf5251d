import { z } from 'zod';
import type { RelayEvent } from '../../src/contracts/push.ts';

const SubscriptionSchema = z.object({
  endpoint: z.string().min(1),
  keys: z.object({ p256dh: z.string().min(1), auth: z.string().min(1) }),
});

const EventSchema = z.object({
  payload: z.object({
    id: z.number().int().nonnegative(),
    kind: z.enum(['friend_request', 'friend_accepted']),
    requestId: z.string().min(1),
    actor: z.object({ id: z.string(), username: z.string(), profileImage: z.string() }),
    url: z.string(),
    unread: z.number().int().nonnegative(),
    createdAt: z.string(),
  }),
  recipientId: z.string(),
  subscriptions: z.array(SubscriptionSchema),
});

export type ParsedEvent =
  { ok: true; event: RelayEvent } | { ok: false; id: number | undefined; problem: string };

/** An event off the wire: checked, with its id even when the rest does not fit. */
export function parseEvent(raw: unknown): ParsedEvent {
  const parsed = EventSchema.safeParse(raw);
  if (parsed.success) return { ok: true, event: parsed.data };
  const id = (raw as { payload?: { id?: unknown } } | null)?.payload?.id;
  return {
    ok: false,
    id: typeof id === 'number' && Number.isInteger(id) ? id : undefined,
    problem: parsed.error.issues
      .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
      .join('; '),
  };
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
