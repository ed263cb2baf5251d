/**
 * What runs first in a document that carries a route's first screen (vite.config.ts
 * `startAfterFirstPaint`, docs/architecture.md "Code splitting and first paint"): once the screen
 * has painted it preloads the app's chunks the document names (`link[data-after-paint]`), a few
 * per task, and starts the app, and it carries over what the member did meanwhile. A
 * button pressed on the first screen is pressed again on the app's own screen once it is there,
 * so an early tap is never lost.
 *
 * The build writes this function out as the text of its own small script, only into a document
 * whose root holds a first screen, so it uses nothing from outside its body.
 */
export function startFirstScreen(start: () => unknown): void {
  const root = document.getElementById('root') as HTMLElement;
  const screen = root.firstElementChild as Element;
  const nameOf = (button: Element) => button.getAttribute('aria-label') ?? button.textContent;
  let pressed: string | null | undefined;
  const onClick = (event: Event) => {
    const button = (event.target as Element).closest('button');
    if (button && screen.contains(button)) pressed = nameOf(button);
  };
  addEventListener('click', onClick, true);
  new MutationObserver((_, observer) => {
    if (screen.isConnected) return;
    const again = [...root.querySelectorAll('button')].find((button) => nameOf(button) === pressed);
    if (pressed !== undefined && !again) return;
    observer.disconnect();
    removeEventListener('click', onClick, true);
    again?.click();
  }).observe(root, { childList: true, subtree: true });
  // Each preload costs the main thread a moment, so they start a few at a time, each batch a
  // task of its own, the entry's first: all at once would hold a slow phone for a long task.
  const links = [...document.querySelectorAll<HTMLLinkElement>('link[data-after-paint]')];
  const preload = () => {
    for (const link of links.splice(0, 5)) link.rel = 'modulepreload';
    if (links.length > 0) setTimeout(preload);
  };
  const afterPaint = () => {
    preload();
    start();
  };
  // Told once the screen's content is on the display (paint timing's first contentful paint);
  // where the browser cannot tell, two frames on, as a frame's callback runs before its paint.
  if (PerformanceObserver.supportedEntryTypes.includes('paint'))
    new PerformanceObserver((list, painted) => {
      if (!list.getEntriesByName('first-contentful-paint').length) return;
      painted.disconnect();
      afterPaint();
    }).observe({ type: 'paint', buffered: true });
  else requestAnimationFrame(() => requestAnimationFrame(afterPaint));
}
