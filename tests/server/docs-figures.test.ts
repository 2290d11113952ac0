import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SPEC_CALLS } from '../../common/api/spec-calls';
import { BENCHMARKS } from '../bench/all-suites';
import { latestFiguresInDoc, readResults, renderLatestFigures } from '../bench/lib/results';

/**
 * What the README and docs/ quote, held to where it is generated: the §7 calls served (written by
 * `npm run spec:coverage`, checked by spec-coverage.test.ts), the server's settings (what server/
 * reads from the environment), the scripts (package.json), the test folders and projects (tests/,
 * vitest.config.ts), CI's commands (.ci/run), the latest bench figures (tests/bench/results.json)
 * and the suites, and every link and file path the docs name. A failure names the doc to update.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (rel: string): string => readFileSync(path.join(ROOT, rel), 'utf8');
const DOCS = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** The text of a `## title` section (up to the next heading of level 2 or above). */
function section(doc: string, title: string): string {
  const start = doc.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`no section "## ${title}"`);
  const rest = doc.slice(start + title.length + 5);
  const end = rest.search(/\n#{1,2} /);
  return end < 0 ? rest : rest.slice(0, end);
}

/** The first column of the first Markdown table in `text`, one string per row (header and rule left out). */
function firstColumn(text: string): string[] {
  const rows: string[] = [];
  for (const line of text.split('\n').slice(text.split('\n').findIndex((l) => l.startsWith('|')))) {
    if (!line.startsWith('|')) break;
    rows.push(line.split('|')[1]!.trim());
  }
  return rows.slice(2);
}

const backticked = (text: string): string[] => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
const withoutCode = (doc: string): string => doc.replace(/^```[\s\S]*?^```/gm, '');

function filesUnder(dir: string, ext: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith(ext))
    .map((f) => path.join(dir, f));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const anchorsOf = (doc: string): Set<string> =>
  new Set([...withoutCode(doc).matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));

describe('the README', () => {
  it('stays a first hour: at most 250 lines', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(250);
  });

  it('quotes the §7 coverage figures between their markers, where `npm run spec:coverage` writes them', () => {
    // tests/server/spec-coverage.test.ts holds the sentence to the server's routes and the client's code.
    const quoted = /<!-- spec-coverage:figures -->serves \*\*(\d+) of the spec's (\d+) calls\*\*.*?<!-- \/spec-coverage:figures -->/.exec(read('README.md'));
    expect(quoted, 'README: the generated "serves N of the spec\'s M calls" between its markers').not.toBeNull();
    expect(Number(quoted![2]), 'README: the number of §7 calls').toBe(SPEC_CALLS.length);
  });

  it("is what CI runs: .ci/run runs the README's install command and ends with its test command", () => {
    const block = /```bash\n([\s\S]*?)```/.exec(read('README.md'))![1]!;
    const commands = block
      .split('\n')
      .flatMap((line) => line.replace(/#.*$/, '').split('&&'))
      .map((c) => c.trim())
      .filter(Boolean);
    const install = commands.find((c) => c.startsWith('npm install'));
    const test = commands.find((c) => c.startsWith('npm test'));
    expect(install && test, `README's first bash block names an install and a test command: ${commands.join('; ')}`).toBeTruthy();
    const ciLines = read('.ci/run')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    expect(ciLines.some((l) => l.startsWith(install!)), `.ci/run runs "${install}"`).toBe(true);
    expect(ciLines.at(-1), ".ci/run's last command is the README's test command").toBe(test);
  });
});

describe('settings', () => {
  const serverReads = new Set(
    filesUnder('server', '.ts').flatMap((f) => [...read(f).matchAll(/\benv(?:\.([A-Z][A-Z0-9_]*)\b|\[['"]([A-Z][A-Z0-9_]*)['"]\])/g)].map((m) => (m[1] ?? m[2])!)),
  );
  const namesIn = (cells: string[]): string[] => cells.flatMap(backticked).filter((n) => /^[A-Z][A-Z0-9_]+$/.test(n));

  it("docs/operations.md lists exactly the environment variables server/ reads", () => {
    const listed = namesIn(firstColumn(section(read('docs/operations.md'), 'Settings')));
    expect(new Set(listed).size, 'docs/operations.md names a setting twice').toBe(listed.length);
    expect([...listed].sort(), 'docs/operations.md "Settings" table vs the variables server/ reads').toEqual([...serverReads].sort());
  });

  it("the README's settings are settings the server reads", () => {
    const listed = namesIn(firstColumn(section(read('README.md'), 'Settings')));
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.filter((n) => !serverReads.has(n)), 'README "Settings" names variables the server does not read').toEqual([]);
  });
});

describe('scripts', () => {
  const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);
  const invocation = (s: string): string => (s === 'start' || s === 'test' ? `npm ${s}` : `npm run ${s}`);

  it('docs/operations.md names every script of package.json', () => {
    const table = section(read('docs/operations.md'), 'Scripts');
    const named = new Set([...table.matchAll(/npm (?:run )?([\w:-]+)/g)].map((m) => m[1]!));
    expect(scripts.filter((s) => !named.has(s)).map(invocation), 'scripts missing from docs/operations.md "Scripts"').toEqual([]);
  });

  it('every `npm run X` the docs mention is a script', () => {
    const unknown = DOCS.flatMap((doc) => [...read(doc).matchAll(/npm run ([\w:-]+)/g)].filter((m) => !scripts.includes(m[1]!)).map((m) => `${doc}: npm run ${m[1]}`));
    expect(unknown).toEqual([]);
  });
});

describe('tests', () => {
  it('docs/testing.md lists every folder of tests/ and no other', () => {
    const folders = readdirSync(path.join(ROOT, 'tests')).filter((f) => statSync(path.join(ROOT, 'tests', f)).isDirectory());
    const listed = firstColumn(section(read('docs/testing.md'), 'The folders of `tests/`')).flatMap(backticked).map((f) => f.replace(/^tests\/|\/$/g, ''));
    expect(listed.sort(), 'docs/testing.md "The folders of tests/" vs tests/').toEqual(folders.sort());
  });

  it('docs/testing.md lists every vitest project', () => {
    const projects = [...read('vitest.config.ts').matchAll(/\bname: '([\w-]+)'/g)].map((m) => m[1]!);
    expect(projects.length).toBeGreaterThan(0);
    const listed = firstColumn(section(read('docs/testing.md'), 'The vitest projects (`vitest.config.ts`)')).flatMap(backticked);
    expect(listed.sort(), 'docs/testing.md projects vs vitest.config.ts').toEqual(projects.sort());
  });
});

describe('benchmarks', () => {
  const doc = read('docs/benchmarks.md');

  it('the latest figures in docs/benchmarks.md are those of tests/bench/results.json', () => {
    expect(latestFiguresInDoc(doc), 'docs/benchmarks.md: rerun `npm run bench -- <suite> --record`, never edit the block').toBe(renderLatestFigures(readResults()));
    const suites = BENCHMARKS.map((b) => b.name);
    expect(Object.keys(readResults()).filter((s) => !suites.includes(s)), 'tests/bench/results.json names suites that no longer exist').toEqual([]);
  });

  it('every suite has its section, and every metric the doc names is one a suite reports', () => {
    const headings = [...doc.matchAll(/^## (.+)$/gm)].map((m) => m[1]!);
    expect(BENCHMARKS.map((b) => b.name).filter((n) => !headings.includes(n)), 'suites without a "## <name>" section in docs/benchmarks.md').toEqual([]);
    const source = filesUnder('tests/bench', '.ts').map(read).join('\n');
    const metrics = new Set(backticked(doc).filter((n) => /^[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*$/.test(n)));
    expect([...metrics].filter((m) => !new RegExp(`\\b${m}\\b`).test(source)), 'metrics docs/benchmarks.md names that no suite reports').toEqual([]);
  });
});

describe('links and paths in the docs', () => {
  it('every relative link leads to a file, and every #anchor to a heading of it', () => {
    const broken: string[] = [];
    for (const doc of DOCS) {
      for (const [, target] of withoutCode(read(doc)).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [file, anchor] = target!.split('#');
        const resolved = file ? path.join(path.dirname(doc), file) : doc;
        if (!existsSync(path.join(ROOT, resolved))) broken.push(`${doc}: ${target} (no such file)`);
        else if (anchor && resolved.endsWith('.md') && !anchorsOf(read(resolved)).has(decodeURIComponent(anchor))) broken.push(`${doc}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('every file or folder of the repository the docs name in `code` exists (a moved file is a doc to update)', () => {
    const missing: string[] = [];
    for (const doc of DOCS) {
      for (const name of backticked(read(doc))) {
        const m = /^((?:common|src|server|workers|electron|tests|docs|\.ci)\/[^\s:]*)/.exec(name);
        if (!m || /[<>*{}…]/.test(m[1]!)) continue;
        if (!existsSync(path.join(ROOT, m[1]!))) missing.push(`${doc}: ${m[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
