import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Keeps the composition root short and its wiring in one style (issue 40): server/app.ts only
 * composes the domains, each domain is built by one `buildX(deps)` with named dependencies, and no
 * service takes a long positional list (two arguments swapped there type-check whenever they share a type).
 */
const ROOT = path.resolve(__dirname, '../../..');
const MAX_APP_LINES = 150;
const MAX_POSITIONAL = 4;

function sourcesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourcesUnder(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(path.join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
}

describe('composition root', () => {
  it(`server/app.ts stays within ${MAX_APP_LINES} lines`, () => {
    const lines = readFileSync(path.join(ROOT, 'server/app.ts'), 'utf8').trimEnd().split('\n').length;
    expect(lines).toBeLessThanOrEqual(MAX_APP_LINES);
  });

  it(`no service constructor takes more than ${MAX_POSITIONAL} positional arguments (more go in one named deps object)`, () => {
    const long: string[] = [];
    for (const file of sourcesUnder('server/services')) {
      const visit = (node: ts.Node): void => {
        if (ts.isConstructorDeclaration(node) && node.parameters.length > MAX_POSITIONAL) {
          const name = ts.isClassLike(node.parent) ? node.parent.name?.text : '?';
          long.push(`${file}: ${name}(${node.parameters.length})`);
        }
        node.forEachChild(visit);
      };
      visit(parse(file));
    }
    expect(long).toEqual([]);
  });

  it('every domain builder in server/compose takes one named deps object', () => {
    const builders: string[] = [];
    const positional: string[] = [];
    for (const file of sourcesUnder('server/compose')) {
      for (const statement of parse(file).statements) {
        if (!ts.isFunctionDeclaration(statement) || !statement.name?.text.startsWith('build')) continue;
        builders.push(statement.name.text);
        const params = statement.parameters;
        if (params.length !== 1 || !ts.isObjectBindingPattern(params[0]!.name)) positional.push(`${file}: ${statement.name.text}`);
      }
    }
    expect(builders).toEqual(expect.arrayContaining(['buildAccounts', 'buildAudit', 'buildFiles', 'buildNotices', 'buildSharing', 'buildUploads']));
    expect(positional).toEqual([]);
  });
});
