// @vitest-environment node
/**
 * docs/configuration.md names every setting the server and push-relay read, and only those: the
 * settings of each process's environment schema (`EnvSchema` in server/src/config.ts and
 * push-relay/src/config.ts, with the settings they spread in from src/contracts) against the
 * first column of that process's table ("Server settings", "Push relay settings"). Run alone with
 * `npx vitest run --project unit src/configurationDoc.test.ts`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** Where an object of settings spread into a schema (`...PushEndpointSettings`) is declared. */
const SPREAD_FROM: Record<string, string> = {
  PushEndpointSettings: 'src/contracts/pushHosts.ts',
};

/**
 * The keys of the object literal that opens on the first line matching `start`: the lines at the
 * indent of its first key, up to the line that closes it. A spread (`...Name,`) is read from the
 * file `spreads` names for it.
 */
function objectKeys(source: string, start: RegExp, spreads: (name: string) => string[]): string[] {
  const lines = source.split('\n');
  const opening = lines.findIndex((line) => start.test(line));
  if (opening < 0) throw new Error(`no line matches ${start}`);
  const keys: string[] = [];
  let indent: string | undefined;
  for (const line of lines.slice(opening + 1)) {
    const lead = /^\s*/.exec(line)?.[0] ?? '';
    if (indent === undefined) indent = lead;
    if (lead.length < indent.length && line.trim() !== '') break;
    if (lead !== indent) continue;
    const key = /^\s*([A-Z][A-Z0-9_]*):/.exec(line)?.[1];
    const spread = /^\s*\.\.\.(\w+),/.exec(line)?.[1];
    if (key) keys.push(key);
    else if (spread) keys.push(...spreads(spread));
  }
  return keys;
}

function spreadSettings(name: string): string[] {
  const file = SPREAD_FROM[name];
  if (!file) throw new Error(`${name} is spread into a schema; add where it is declared`);
  return objectKeys(read(file), new RegExp(`^export const ${name} = \\{$`), spreadSettings);
}

/** The settings an `EnvSchema` reads, from the source of its config.ts. */
function schemaSettings(source: string): string[] {
  const start = source.indexOf('const EnvSchema = z');
  const object = source.indexOf('.object({', start);
  if (start < 0 || object < 0) throw new Error('no `const EnvSchema = z…object({` found');
  const fromObject = source.slice(source.lastIndexOf('\n', object) + 1);
  return objectKeys(fromObject, /\.object\(\{$/, spreadSettings);
}

/** The setting names in the first column of the table under `## heading` (several: `A` / `B`). */
function documentedSettings(markdown: string, heading: string): string[] {
  const section = markdown.split(/^## /m).find((part) => part.startsWith(`${heading}\n`));
  if (!section) throw new Error(`docs/configuration.md has no "## ${heading}"`);
  return section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)])
    .map((match) => match[1] ?? '');
}

/** What is wrong between the settings read and those documented, one line each. */
function differences(read: readonly string[], documented: readonly string[]): string[] {
  const documentedSet = new Set(documented);
  const readSet = new Set(read);
  return [
    ...read.filter((name) => !documentedSet.has(name)).map((name) => `${name} is not documented`),
    ...documented
      .filter((name) => !readSet.has(name))
      .map((name) => `${name} is documented but not read`),
    ...documented
      .filter((name, index) => documented.indexOf(name) !== index)
      .map((name) => `${name} is documented twice`),
  ];
}

describe('docs/configuration.md', () => {
  const doc = read('docs/configuration.md');

  it('reads the settings of a schema, spreads included, and the names of a table', () => {
    const source = [
      'const EnvSchema = z',
      '  .object({',
      '    PORT: z.coerce.number().default(5000),',
      '    // A comment: NOT_A_SETTING: here.',
      '    S3_BUCKET: z',
      '      .string()',
      '      .optional(),',
      '    ...PushEndpointSettings,',
      '  })',
      '  .superRefine(() => {',
      '    OTHER: 1,',
      '  });',
    ].join('\n');
    expect(schemaSettings(source)).toEqual([
      'PORT',
      'S3_BUCKET',
      'PUSH_ALLOWED_HOSTS',
      'PUSH_ALLOW_LOCAL_SERVICE',
    ]);
    const table = [
      '## Server settings',
      '',
      '| Variable | Default | Meaning |',
      '| --- | --- | --- |',
      '| `PORT` | `5000` | Port, see `HOST`. |',
      '| `S3_ACCESS_KEY_ID` / `S3_SECRET_ACCESS_KEY` | _(unset)_ | Both. |',
      '',
      '## Next',
      '| `HOST` | | |',
    ].join('\n');
    expect(documentedSettings(table, 'Server settings')).toEqual([
      'PORT',
      'S3_ACCESS_KEY_ID',
      'S3_SECRET_ACCESS_KEY',
    ]);
    expect(differences(['PORT', 'HOST'], ['PORT', 'PORT', 'STATIC'])).toEqual([
      'HOST is not documented',
      'STATIC is documented but not read',
      'PORT is documented twice',
    ]);
  });

  it.each([
    ['the server', 'server/src/config.ts', 'Server settings'],
    ['push-relay', 'push-relay/src/config.ts', 'Push relay settings'],
  ])('documents every setting %s reads, and no other', (_process, config, heading) => {
    const settings = schemaSettings(read(config));
    expect(settings.length).toBeGreaterThan(10);
    expect(differences(settings, documentedSettings(doc, heading))).toEqual([]);
  });
});
