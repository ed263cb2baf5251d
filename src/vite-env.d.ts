/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The API host build setting: '' → the rule of docs/product.md "Session and API calls", 'self' → the page's own origin, else a URL. */
  readonly VITE_API_ORIGIN?: string;
}
