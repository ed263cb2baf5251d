/// <reference lib="webworker" />
/**
 * Photos shared into Orbit from another app's share sheet (the manifest's `share_target`): the
 * worker keeps them on the device for the member signed in, or for whoever logs in next, and sends
 * the page to that member's profile, where the upload manager opens on them
 * (docs/decisions.md "Sharing into Orbit").
 */
import { registerRoute } from 'workbox-routing';
import { readCurrentMember, saveSharedFiles } from '../src/lib/idb.ts';
import { SHARE_FIELD, SHARE_LANDING, SHARE_PATH } from '../src/contracts/share.ts';

/** The files of a share's form: only those, nothing else it may carry. */
function sharedFiles(form: FormData): File[] {
  return form.getAll(SHARE_FIELD).filter((value): value is File => typeof value !== 'string');
}

/** Keeps the shared files and answers the redirect to the profile (303: the page GETs it). */
export async function receiveShare(request: Request, origin: string): Promise<Response> {
  let files: File[] = [];
  try {
    files = sharedFiles(await request.formData());
  } catch {
    // A form that does not read shares nothing; the profile opens as usual.
  }
  if (files.length > 0) {
    await saveSharedFiles(
      await readCurrentMember(),
      files.map((file) => ({ file, name: file.name, type: file.type })),
    );
  }
  return Response.redirect(new URL(SHARE_LANDING, origin).href, 303);
}

export function registerShare(worker: ServiceWorkerGlobalScope): void {
  registerRoute(
    ({ url }) => url.origin === worker.location.origin && url.pathname === SHARE_PATH,
    ({ request }) => receiveShare(request, worker.location.origin),
    'POST',
  );
}
