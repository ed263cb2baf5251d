/** The API host build setting, as vite defines it in the worker's bundle too. */
interface ImportMetaEnv {
  readonly VITE_API_ORIGIN?: string;
}
interface ImportMeta {
  readonly env: ImportMetaEnv;
}
