/** A BroadcastChannel that is simply absent where the browser has none. */
export function openChannel(
  name: string,
  onMessage: (data: unknown) => void,
): { post(data: unknown): void; close(): void } {
  if (typeof BroadcastChannel === 'undefined')
    return { post: () => undefined, close: () => undefined };
  const channel = new BroadcastChannel(name);
  channel.onmessage = (event: MessageEvent) => onMessage(event.data);
  return {
    post: (data) => {
      try {
        channel.postMessage(data);
      } catch {
        // A closed channel during unload: nothing to tell.
      }
    },
    close: () => channel.close(),
  };
}
