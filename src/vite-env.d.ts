/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The API host build setting: '' → SPEC §7's rule, 'self' → the page's own origin, else a URL. */
  readonly VITE_API_ORIGIN?: string;
}
