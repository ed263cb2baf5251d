/**
 * The build's manifest (`.vite/manifest.json`), as the build reads it for its first screens
 * (vite.config.ts) and the server for a signed-in profile's document (server/src/plugins/static.ts).
 */
interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
  isEntry?: boolean;
}
export type BuildManifest = Record<string, ManifestChunk>;

/**
 * What `sources` load beyond the entry: their chunks' files, with every chunk they import, and
 * their style sheets, less what the entry loads anyway.
 */
export function routeChunks(manifest: BuildManifest, sources: readonly string[]) {
  const entry = new Set<string>();
  const visitEntry = (key: string) => {
    if (entry.has(key) || !manifest[key]) return;
    entry.add(key);
    for (const imported of manifest[key].imports ?? []) visitEntry(imported);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visitEntry(key);
  const entrySheets = new Set([...entry].flatMap((key) => manifest[key]?.css ?? []));
  const files: string[] = [];
  const sheets: string[] = [];
  const seen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (seen.has(key) || entry.has(key) || !chunk) return;
    seen.add(key);
    files.push(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
    for (const sheet of chunk.css ?? [])
      if (!entrySheets.has(sheet) && !sheets.includes(sheet)) sheets.push(sheet);
  };
  for (const source of sources) visit(source);
  return { files, sheets };
}
