/** jsdom's <dialog> has no modal methods; these only set `open`, as far as the dialog tests need. */
export function withDialogMethods() {
  if ('showModal' in HTMLDialogElement.prototype) return;
  Object.assign(HTMLDialogElement.prototype, {
    showModal(this: HTMLDialogElement) {
      this.open = true;
    },
    close(this: HTMLDialogElement) {
      this.open = false;
    },
  });
}

/** A server that answers each call with `status` and `body`, and keeps what it was sent. */
export function answering(status: number, body: unknown) {
  const calls: { url: string; method: string; body: unknown }[] = [];
  const fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({
      url: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      method: init?.method ?? 'GET',
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    });
    return Promise.resolve(
      new Response(JSON.stringify(body), {
        status,
        headers: { 'Content-Type': 'application/json' },
      }),
    );
  };
  return { calls, fetch };
}
