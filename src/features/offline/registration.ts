/**
 * Registers the service worker (production builds only) and drives the update flow through
 * workbox-window: a waiting worker is offered as `A new version is available`; Reload tells it to
 * skip waiting and the page reloads once when it takes control.
 */
import { Workbox } from 'workbox-window';
import { useUpdate } from './update.ts';

const SERVICE_WORKER_URL = '/sw.js';
/** How often an open page asks whether a new version was deployed. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

export interface RegistrationOptions {
  target?: Window;
  checkEveryMs?: number;
}

export interface Registration {
  workbox: Workbox;
  stop: () => void;
}

/** Asks the server for a newer worker; failures (offline) simply wait for the next check. */
function checkForUpdate(workbox: Workbox) {
  workbox.update().catch((error: unknown) => console.warn('Update check failed', error));
}

/** Watches for new versions: periodically, when the page is shown again and when back online. */
function scheduleUpdateChecks(workbox: Workbox, target: Window, everyMs: number): () => void {
  const check = () => checkForUpdate(workbox);
  const onVisible = () => {
    if (target.document.visibilityState === 'visible') check();
  };
  const timer = target.setInterval(check, everyMs);
  target.document.addEventListener('visibilitychange', onVisible);
  target.addEventListener('online', check);
  return () => {
    target.clearInterval(timer);
    target.document.removeEventListener('visibilitychange', onVisible);
    target.removeEventListener('online', check);
  };
}

export function registerServiceWorker(options: RegistrationOptions = {}): Registration {
  const target = options.target ?? window;
  const workbox = new Workbox(SERVICE_WORKER_URL, { scope: '/' });
  let activating = false;
  let reloading = false;
  const reload = () => {
    // controllerchange can fire more than once; one reload per page is all a new version needs.
    if (reloading) return;
    reloading = true;
    target.location.reload();
  };

  workbox.addEventListener('waiting', () =>
    useUpdate.getState().offer(() => {
      activating = true;
      workbox.messageSkipWaiting();
    }),
  );
  // workbox-window calls a worker found after the first one "external" and gives its `controlling`
  // no isUpdate, so whether the page had a worker before is tracked here.
  let controlled = Boolean(target.navigator.serviceWorker?.controller);
  workbox.addEventListener('controlling', () => {
    const replaced = controlled;
    controlled = true;
    if (activating) reload();
    // Another tab chose Reload: this page's worker changed under it; offer the reload here too.
    // (The first install claims the page with the assets it loaded: nothing to reload for.)
    else if (replaced) useUpdate.getState().offer(reload);
  });

  let stopped = false;
  let stopChecks = () => {};
  void workbox.register().then(
    () => {
      if (stopped) return;
      stopChecks = scheduleUpdateChecks(workbox, target, options.checkEveryMs ?? UPDATE_CHECK_MS);
    },
    (error: unknown) => console.warn('Service worker registration failed', error),
  );
  return {
    workbox,
    stop: () => {
      stopped = true;
      stopChecks();
    },
  };
}
