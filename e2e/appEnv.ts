/**
 * The environment `npm start` gets under the browser suites: its own port and data directory, the
 * origin the browser uses, and limits high enough for many members signing up and uploading at once.
 */
export function appEnv(options: { port: number; dataDir: string; origin: string }) {
  return {
    PORT: String(options.port),
    DATA_DIR: options.dataDir,
    AUTH_RATE_LIMIT: '1000',
    UPLOADS_AT_ONCE: '1000',
    UPLOADS_PER_HOUR: '1000000',
    LOG_LEVEL: 'warn',
    APP_ORIGIN: options.origin,
  };
}
