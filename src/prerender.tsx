/**
 * The first screen of a route as HTML, made when the app is built (vite.config.ts
 * `prerenderFirstScreens`): the server sends it inside the document, so the page paints before its
 * code has run (docs/architecture.md "Code splitting and first paint"). React then renders the same
 * screen over it.
 */
import { prerenderToNodeStream } from 'react-dom/static';
import { MemoryRouter } from 'react-router-dom';
import { AppRoutes } from './app/routes.tsx';

export async function firstScreen(path: string): Promise<string> {
  const { prelude } = await prerenderToNodeStream(
    <MemoryRouter initialEntries={[path]}>
      <AppRoutes />
    </MemoryRouter>,
  );
  let html = '';
  for await (const chunk of prelude) html += String(chunk);
  return untilTheAppRuns(html);
}

/**
 * The first screen takes no input before the app does, as the app renders over it: its fields are
 * read-only, its checkboxes disabled, and its submit buttons plain buttons, so that nothing typed
 * is lost and no form is sent by the browser itself.
 */
function untilTheAppRuns(html: string): string {
  return html
    .replace(/<input type="checkbox"/g, '<input disabled type="checkbox"')
    .replace(/<input(?! disabled type="checkbox")/g, '<input readonly')
    .replace(/<button type="submit"/g, '<button type="button"');
}
