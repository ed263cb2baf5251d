// @vitest-environment node
/**
 * Every rule the code cites must be findable in the repository: comments cite
 * `docs/<file>.md "Heading"` (or `docs/<file>.md#slug`), and that heading must exist; links
 * between README.md and docs/ must land. Documents kept outside the repository may not be cited
 * at all. Run alone with `npx vitest run --project unit src/docReferences.test.ts`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SOURCE_DIRS = ['src', 'sw', 'server', 'push-relay', 'e2e', 'bench', 'scripts'];
const SKIPPED_DIRS = new Set([
  'node_modules',
  'dist',
  'build',
  'data',
  'test-results',
  'playwright-report',
]);
const SOURCE_FILE = /\.(?:[cm]?[jt]sx?|css|html)$/;

/** Names of the documents that live outside the repository; spelled in pieces so this file passes. */
const OUTSIDE_DOCS = ['SP' + 'EC', 'DECI' + 'SIONS', 'ARCHI' + 'TECTURE'];
const OUTSIDE_CITATION = new RegExp(`\\b(?:${OUTSIDE_DOCS.join('|')})\\b`);
/** `docs/x.md "Heading"` (or `"A", "B"`), `docs/x.md#slug` or a bare `docs/x.md`. */
const DOC_CITATION = /\bdocs\/([\w.-]+\.md)(?:#([\w-]+)|((?: "[^"]+",?)+))?/g;
/** `README.md "Heading"` or `README "Heading"`. */
const README_CITATION = /\bREADME(?:\.md)? "([^"]+)"/g;
/** A relative markdown link to another document, with an optional anchor: `](forms.md#slug)`. */
const MARKDOWN_LINK = /\]\((?!https?:|#|mailto:)([^)\s#]+\.md)(?:#([\w-]+))?\)/g;

/** The anchor a heading gets on GitHub: lower case, punctuation dropped, spaces as hyphens. */
function slugify(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The headings of a markdown text (code fences skipped), by exact text and by slug. */
function headingsOf(markdown: string): { texts: Set<string>; slugs: Set<string> } {
  const texts = new Set<string>();
  const slugs = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = fenced ? undefined : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)?.[1];
    if (heading) {
      texts.add(heading);
      slugs.add(slugify(heading));
    }
  }
  return { texts, slugs };
}

type Headings = (file: string) => ReturnType<typeof headingsOf> | undefined;

/** What is wrong with one line's citations, if anything. */
function problemsIn(line: string, headings: Headings): string[] {
  const problems: string[] = [];
  const outside = OUTSIDE_CITATION.exec(line);
  if (outside) problems.push(`cites ${outside[0]}, which is not in the repository`);
  for (const [, file = '', slug, quoted] of line.matchAll(DOC_CITATION)) {
    const found = headings(file);
    if (!found) {
      problems.push(`cites docs/${file}, which does not exist`);
      continue;
    }
    for (const [, heading = ''] of (quoted ?? '').matchAll(/"([^"]+)"/g))
      if (!found.texts.has(heading))
        problems.push(`cites docs/${file} "${heading}", which has no such heading`);
    if (slug !== undefined && !found.slugs.has(slug))
      problems.push(`cites docs/${file}#${slug}, which has no such heading`);
  }
  for (const [, heading = ''] of line.matchAll(README_CITATION))
    if (!headings('../README.md')?.texts.has(heading))
      problems.push(`cites README.md "${heading}", which has no such heading`);
  return problems;
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : filesUnder(path);
    return SOURCE_FILE.test(entry.name) ? [path] : [];
  });
}

const headingCache = new Map<string, ReturnType<typeof headingsOf> | undefined>();
function docHeadings(path: string) {
  if (!headingCache.has(path))
    headingCache.set(path, existsSync(path) ? headingsOf(readFileSync(path, 'utf8')) : undefined);
  return headingCache.get(path);
}

/** A citation that a line break cuts: `docs/x.md` ending the line, or its heading's quote left open. */
const CUT_CITATION = /\bdocs\/[\w.-]+\.md(?:(?: "[^"]+",?)* "[^"]*| ?)$/;
/** What a continued comment line starts with: its indent and `*`, `//` or `#`. */
const CONTINUATION = /^\s*(?:\*(?!\/)|\/\/|#)?\s*/;

/**
 * The problems of one line of a file, with a citation that runs onto the next line read whole:
 * its part on this line joined to the next line's text.
 */
function problemsAt(lines: readonly string[], index: number, headings: Headings): string[] {
  const line = lines[index] ?? '';
  const cut = CUT_CITATION.exec(line);
  const next = lines[index + 1];
  if (!cut || next === undefined) return problemsIn(line, headings);
  const before = problemsIn(line.slice(0, cut.index), headings);
  const joined = `${cut[0].trimEnd()} ${next.replace(CONTINUATION, '')}`;
  const first = [...joined.matchAll(DOC_CITATION)][0]?.[0] ?? '';
  return [...before, ...problemsIn(first, headings)];
}

/** Every offending line of the source folders, as `file:line: problem`. */
function sourceOffenders(): string[] {
  const self = fileURLToPath(import.meta.url);
  const rootFiles = readdirSync(ROOT, { withFileTypes: true })
    .filter((entry) => entry.isFile() && SOURCE_FILE.test(entry.name))
    .map((entry) => join(ROOT, entry.name));
  return [...rootFiles, ...SOURCE_DIRS.flatMap((dir) => filesUnder(join(ROOT, dir)))]
    .filter((file) => file !== self)
    .flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((_line, index, lines) =>
          problemsAt(lines, index, (doc) => docHeadings(join(ROOT, 'docs', doc))).map(
            (problem) => `${relative(ROOT, file)}:${index + 1}: ${problem}`,
          ),
        ),
    );
}

/** Links between the repository's own documents whose file or anchor is missing. */
function documentOffenders(): string[] {
  const documents = [
    join(ROOT, 'README.md'),
    ...readdirSync(join(ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => join(ROOT, 'docs', name)),
  ];
  return documents.flatMap((document) =>
    readFileSync(document, 'utf8')
      .split('\n')
      .flatMap((line, index) => {
        const where = `${relative(ROOT, document)}:${index + 1}`;
        const outside = OUTSIDE_CITATION.exec(line);
        const problems = outside
          ? [`${where}: cites ${outside[0]}, which is not in the repository`]
          : [];
        for (const [, target = '', slug] of line.matchAll(MARKDOWN_LINK)) {
          const found = docHeadings(join(document, '..', target));
          if (!found) problems.push(`${where}: links to ${target}, which does not exist`);
          else if (slug !== undefined && !found.slugs.has(slug))
            problems.push(`${where}: links to ${target}#${slug}, which has no such heading`);
        }
        return problems;
      }),
  );
}

describe('doc references', () => {
  const docs = (file: string) =>
    file === 'product.md' ? headingsOf('# Product\n\n## Uploads\n\n### Image viewer\n') : undefined;

  it('accepts a citation of an existing heading, quoted or as a slug', () => {
    expect(problemsIn('// Tiles stay (docs/product.md "Uploads").', docs)).toEqual([]);
    expect(problemsIn('/* see docs/product.md#image-viewer */', docs)).toEqual([]);
  });

  it('reports a document kept outside the repository', () => {
    expect(problemsIn(`/** The rule of ${OUTSIDE_DOCS[0]} §4.9. */`, docs)).toEqual([
      `cites ${OUTSIDE_DOCS[0]}, which is not in the repository`,
    ]);
    expect(problemsIn(`// ${OUTSIDE_DOCS[1]} "Gallery"`, docs)).toHaveLength(1);
  });

  it('reports a missing heading or document', () => {
    expect(problemsIn('// docs/product.md "Upload"', docs)).toEqual([
      'cites docs/product.md "Upload", which has no such heading',
    ]);
    expect(problemsIn('// docs/product.md#uploading', docs)).toEqual([
      'cites docs/product.md#uploading, which has no such heading',
    ]);
    expect(problemsIn('// (docs/product.md "Uploads", "Viewer")', docs)).toEqual([
      'cites docs/product.md "Viewer", which has no such heading',
    ]);
    expect(problemsIn('// README "Uploads"', docs)).toEqual([
      'cites README.md "Uploads", which has no such heading',
    ]);
    expect(problemsIn('// docs/nowhere.md "Uploads"', docs)).toEqual([
      'cites docs/nowhere.md, which does not exist',
    ]);
  });

  it('reads a citation that a line break cuts as one', () => {
    const at = (text: string) => problemsAt(text.split('\n'), 0, docs);
    expect(at(' * Kept (docs/product.md "Image\n * viewer").')).toEqual([]);
    expect(at(' * Kept (docs/product.md\n * "Uploads", "Image viewer").')).toEqual([]);
    expect(at('// see docs/product.md "Up\n// loads"')).toEqual([
      'cites docs/product.md "Up loads", which has no such heading',
    ]);
    expect(at(' * Kept (docs/product.md\n * "Viewer").')).toEqual([
      'cites docs/product.md "Viewer", which has no such heading',
    ]);
    expect(at('// docs/product.md "Uploads" and docs/product.md "Nope\n// here"')).toEqual([
      'cites docs/product.md "Nope here", which has no such heading',
    ]);
  });

  it('slugs headings as GitHub does', () => {
    expect(slugify('Offline, install and push')).toBe('offline-install-and-push');
    expect(slugify('Username: the rule first, then availability')).toBe(
      'username-the-rule-first-then-availability',
    );
  });

  it('finds every cited heading in the source folders', () => {
    expect(sourceOffenders().join('\n')).toBe('');
  });

  it('finds every linked document and anchor in README.md and docs/, and nothing outside', () => {
    expect(documentOffenders().join('\n')).toBe('');
  });
});
