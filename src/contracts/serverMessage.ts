/**
 * Reads `{error}` or `{message}` from a failed answer's body, if it carries one: the server's own
 * words, for the page's calls (src/lib/http.ts) and the outbox's replays (sw/outbox.ts).
 */
export function serverMessageOf(text: string): string | null {
  try {
    const body: unknown = JSON.parse(text);
    if (body && typeof body === 'object') {
      const { error, message } = body as { error?: unknown; message?: unknown };
      if (typeof error === 'string' && error) return error;
      if (typeof message === 'string' && message) return message;
    }
  } catch {
    // Not JSON: the status says enough.
  }
  return null;
}
