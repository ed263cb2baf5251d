/**
 * Set by the service worker on an API answer it served from the member's saved copy because the
 * network failed or was too slow; the page shows its offline banner for such answers.
 */
export const OFFLINE_HEADER = 'x-orbit-offline';
