/**
 * Which endpoints the client calls, read from its code. A use of an endpoint is a use of its
 * declaration (`FILES.list`, `DOMAINS.files.list`), of its path constant (`API.fileList`) or of its
 * path written out ('/api/file/list'). It counts only in code the client runs: the modules reachable
 * from its entry points (the pages' scripts, the Electron main and preload, the desktop sync host;
 * through static and dynamic imports and `new URL(…, import.meta.url)` workers, into common/ too),
 * and there only in their top-level statements that run on load or the top-level declarations such
 * code names, followed through imports and re-exports by name (as a bundler's tree-shaking does).
 * An exported wrapper nothing imports is not a call; type-only uses and comments are not either.
 * Names are followed, not types: a local variable shadowing a top-level name keeps that name alive
 * (errs towards "called"), and of a dynamically imported module, the exports the importing code
 * names as members count (`(m) => m.LoginPage`), or all of them when it names none.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/** One use of an endpoint in client code: the declaration's method, or any method for a bare path. */
export interface ClientUse {
  method: string | null;
  /** The path without its fixed query (`?ajax=true`), as the server registers it. */
  path: string;
  /** The module, relative to the repository root. */
  file: string;
}

/** Modules that declare endpoints and paths: naming an entry there is not calling it. */
const DECLARATIONS = ['common/api/endpoints/', 'common/api/paths.ts', 'common/api/spec-calls.ts'];
/** Where the client's code lives (common/ holds code it runs too); other imports are not followed. */
export const CLIENT_ROOTS = ['src/', 'workers/', 'electron/', 'common/'];

/** The client's entry points: the pages' module scripts and the desktop bundles electron/build.ts makes. */
export function clientEntryPoints(root: string): string[] {
  const entries: string[] = [];
  for (const page of ['index.html', 'link.html']) {
    const html = path.join(root, page);
    if (!existsSync(html)) continue;
    for (const m of readFileSync(html, 'utf8').matchAll(/<script[^>]*type="module"[^>]*src="\/([^"]+)"/g)) entries.push(m[1]!);
  }
  const build = readFileSync(path.join(root, 'electron/build.ts'), 'utf8');
  for (const m of build.matchAll(/entryPoints:\s*\[([^\]]*)\]/g)) for (const s of m[1]!.matchAll(/'([^']+)'/g)) entries.push(s[1]!);
  return entries;
}

/** A relative specifier resolved to a file of ours, or null (packages, virtual modules, assets). */
function resolveModule(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')];
  return candidates.find((c) => /\.tsx?$/.test(c) && existsSync(c)) ?? null;
}

const stringOf = (node: ts.Node | undefined): string | null => (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : null);
const serverPath = (p: string): string => p.split('?', 1)[0]!;

interface Endpointish {
  method: string;
  path: string;
  encoding: string;
}
const isEndpoint = (v: unknown): v is Endpointish => typeof v === 'object' && v !== null && 'method' in v && 'path' in v && 'encoding' in v;

/** A top-level statement: the names it declares (none: it runs on load), what it names, what it uses. */
interface Unit {
  names: string[];
  /** Identifiers it reads (top-level names of its module among them). */
  refs: Set<string>;
  /**
   * Modules it imports dynamically or starts as workers. Of their exports, those it names as members
   * (`(m) => m.LoginPage`, `const { a } = await import(…)`) are live with it; all, when it names none.
   */
  loads: string[];
  /** The member names it reads (`x.name`, `{ name } = x`): what it may take from a loaded module. */
  members: Set<string>;
  uses: Omit<ClientUse, 'file'>[];
  live: boolean;
}

interface Module {
  file: string;
  units: Unit[];
  /** Local name → the module and export it is imported from ('*' for a namespace import). */
  imports: Map<string, { module: string; name: string }>;
  /** Exported name → local name. */
  exports: Map<string, string>;
  /** Exported name → the module and export it forwards. */
  reExports: Map<string, { module: string; name: string }>;
  /** `export * from`: modules whose exports are this module's too. */
  starExports: string[];
  /** Modules whose top-level code runs when this one loads (every runtime import). */
  runs: string[];
}

/**
 * Every use of an endpoint in the code the client runs. `knownPaths` are the paths a string written
 * out is compared with (a string is a use only when it is one of them).
 */
export async function clientUses(
  root: string,
  knownPaths: readonly string[],
  { entries = clientEntryPoints(root), roots = CLIENT_ROOTS }: { entries?: readonly string[]; roots?: readonly string[] } = {},
): Promise<ClientUse[]> {
  const relative = (file: string): string => path.relative(root, file).split(path.sep).join('/');
  const isDeclaration = (file: string): boolean => DECLARATIONS.some((d) => relative(file).startsWith(d));
  const ours = (file: string | null): file is string => file !== null && roots.some((r) => relative(file).startsWith(r)) && !isDeclaration(file);
  const paths = new Set(knownPaths.map(serverPath));
  const modules = new Map<string, Module>();
  const declarationExports = new Map<string, Record<string, unknown>>();

  const parse = async (file: string): Promise<Module> => {
    const known = modules.get(file);
    if (known) return known;
    const module: Module = { file, units: [], imports: new Map(), exports: new Map(), reExports: new Map(), starExports: [], runs: [] };
    modules.set(file, module);
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const bindings = new Map<string, unknown>();
    for (const statement of source.statements) {
      if (ts.isImportDeclaration(statement)) {
        if (statement.importClause?.isTypeOnly) continue;
        const target = resolveModule(file, stringOf(statement.moduleSpecifier)!);
        if (target && isDeclaration(target)) await bindDeclarations(statement, target, bindings);
        if (!ours(target)) continue;
        module.runs.push(target);
        const clause = statement.importClause;
        if (clause?.name) module.imports.set(clause.name.text, { module: target, name: 'default' });
        const named = clause?.namedBindings;
        if (named && ts.isNamespaceImport(named)) module.imports.set(named.name.text, { module: target, name: '*' });
        else if (named) for (const s of named.elements) if (!s.isTypeOnly) module.imports.set(s.name.text, { module: target, name: (s.propertyName ?? s.name).text });
      } else if (ts.isExportDeclaration(statement)) {
        if (statement.isTypeOnly) continue;
        const target = statement.moduleSpecifier ? resolveModule(file, stringOf(statement.moduleSpecifier)!) : null;
        if (statement.moduleSpecifier && !ours(target)) continue;
        if (target) module.runs.push(target);
        const clause = statement.exportClause;
        if (!clause) module.starExports.push(target!);
        else if (ts.isNamespaceExport(clause)) module.reExports.set(clause.name.text, { module: target!, name: '*' });
        else
          for (const s of clause.elements) {
            if (s.isTypeOnly) continue;
            const local = (s.propertyName ?? s.name).text;
            if (target) module.reExports.set(s.name.text, { module: target, name: local });
            else module.exports.set(s.name.text, local);
          }
      } else module.units.push(unitOf(statement, module, bindings));
    }
    return module;
  };

  /** The values a module imports from the declaration modules (entries, domains, API), by local name. */
  const bindDeclarations = async (statement: ts.ImportDeclaration, target: string, bindings: Map<string, unknown>): Promise<void> => {
    let exports = declarationExports.get(target);
    if (!exports) declarationExports.set(target, (exports = (await import(pathToFileURL(target).href)) as Record<string, unknown>));
    const named = statement.importClause?.namedBindings;
    if (named && ts.isNamespaceImport(named)) bindings.set(named.name.text, exports);
    else if (named) for (const s of named.elements) if (!s.isTypeOnly) bindings.set(s.name.text, exports[(s.propertyName ?? s.name).text]);
  };

  const unitOf = (statement: ts.Statement, module: Module, bindings: ReadonlyMap<string, unknown>): Unit => {
    const unit: Unit = { names: declaredNames(statement), refs: new Set(), loads: [], members: new Set(), uses: [], live: false };
    const exported = ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    const isDefault = ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
    if (exported) for (const name of unit.names) module.exports.set(isDefault ? 'default' : name, name);
    if (ts.isExportAssignment(statement)) {
      unit.names = ['default'];
      module.exports.set('default', 'default');
    }
    const visit = (node: ts.Node): void => {
      if ((ts.isTypeNode(node) && !isClassBase(node)) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return;
      const literal = stringOf(node) ?? (ts.isTemplateLiteralToken(node) ? node.text : null);
      if (literal !== null && paths.has(serverPath(literal))) unit.uses.push({ method: null, path: serverPath(literal) });
      if ((ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) && !isInnerOfChain(node)) {
        const value = resolveChain(node, bindings);
        if (isEndpoint(value)) unit.uses.push({ method: value.method, path: serverPath(value.path) });
        else if (typeof value === 'string' && paths.has(serverPath(value))) unit.uses.push({ method: null, path: serverPath(value) });
      }
      const loaded = loadedModule(node);
      const target = loaded === null ? null : resolveModule(module.file, loaded);
      if (ours(target)) unit.loads.push(target);
      if (ts.isIdentifier(node) && isReference(node)) unit.refs.add(node.text);
      if (ts.isPropertyAccessExpression(node)) unit.members.add(node.name.text);
      if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) unit.members.add((node.propertyName ?? node.name).getText());
      ts.forEachChild(node, visit);
    };
    visit(statement);
    return unit;
  };

  // Liveness: entry modules run; a running module runs its imports and its statements that are not
  // declarations; a live unit makes live the top-level names it reads, followed through imports.
  const work: (() => Promise<void>)[] = [];
  const ran = new Set<string>();
  const runModule = (file: string): void => {
    if (ran.has(file)) return;
    ran.add(file);
    work.push(async () => {
      const module = await parse(file);
      for (const dep of module.runs) runModule(dep);
      for (const unit of module.units) if (unit.names.length === 0) markUnit(module, unit);
    });
  };
  const markUnit = (module: Module, unit: Unit): void => {
    if (unit.live) return;
    unit.live = true;
    for (const ref of unit.refs) markLocal(module, ref);
    for (const target of unit.loads) {
      runModule(target);
      work.push(async () => {
        const loaded = await parse(target);
        const taken: string[] = [];
        for (const name of unit.members) if (await hasExport(loaded, name)) taken.push(name);
        if (taken.length === 0) markAllExports(loaded);
        for (const name of taken) markExport(loaded, name);
      });
    }
  };
  const markLocal = (module: Module, name: string): void => {
    const imported = module.imports.get(name);
    if (imported) work.push(async () => markExport(await parse(imported.module), imported.name));
    for (const unit of module.units) if (unit.names.includes(name)) markUnit(module, unit);
  };
  const marked = new Set<string>();
  const markExport = (module: Module, name: string): void => {
    const key = `${module.file}#${name}`;
    if (marked.has(key)) return;
    marked.add(key);
    if (name === '*') return markAllExports(module);
    const local = module.exports.get(name);
    if (local !== undefined) return markLocal(module, local);
    const forwarded = module.reExports.get(name);
    if (forwarded) return void work.push(async () => markExport(await parse(forwarded.module), forwarded.name));
    for (const star of module.starExports) work.push(async () => markExport(await parse(star), name));
  };
  const hasExport = async (module: Module, name: string, seen = new Set<Module>()): Promise<boolean> => {
    if (module.exports.has(name) || module.reExports.has(name)) return true;
    seen.add(module);
    for (const star of module.starExports) {
      const next = await parse(star);
      if (!seen.has(next) && (await hasExport(next, name, seen))) return true;
    }
    return false;
  };
  const markAllExports = (module: Module): void => {
    for (const name of [...module.exports.keys(), ...module.reExports.keys()]) markExport(module, name);
    for (const star of module.starExports) work.push(async () => markAllExports(await parse(star)));
  };

  for (const entry of entries) runModule(path.resolve(root, entry));
  while (work.length > 0) await work.shift()!();
  return [...modules.values()].flatMap((m) => m.units.filter((u) => u.live).flatMap((u) => u.uses.map((use) => ({ ...use, file: relative(m.file) }))));
}

/** The names a top-level statement declares (a variable statement's bindings, a function's, a class's, an enum's). */
function declaredNames(statement: ts.Statement): string[] {
  if (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isEnumDeclaration(statement)) return statement.name ? [statement.name.text] : ['default'];
  if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) return [statement.name.text];
  if (!ts.isVariableStatement(statement)) return [];
  const names: string[] = [];
  const collect = (name: ts.BindingName): void => {
    if (ts.isIdentifier(name)) names.push(name.text);
    else for (const element of name.elements) if (!ts.isOmittedExpression(element)) collect(element.name);
  };
  for (const d of statement.declarationList.declarations) collect(d.name);
  return names;
}

/** The module a node loads at run time: `import('…')` or a worker's `new URL('…', import.meta.url)`. */
function loadedModule(node: ts.Node): string | null {
  if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) return stringOf(node.arguments[0]);
  if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'URL' && node.arguments?.[1]?.getText() === 'import.meta.url') return stringOf(node.arguments[0]);
  return null;
}

/** `class A extends B`: B is a value (its type arguments and `implements` are types). */
function isClassBase(node: ts.Node): boolean {
  return ts.isExpressionWithTypeArguments(node) && ts.isHeritageClause(node.parent) && node.parent.token === ts.SyntaxKind.ExtendsKeyword && ts.isClassLike(node.parent.parent);
}

/** Whether an identifier reads a value by its name (not a member's name, a key, or a declared name). */
function isReference(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return false;
  if ((ts.isPropertyAssignment(parent) || ts.isMethodDeclaration(parent) || ts.isPropertyDeclaration(parent) || ts.isJsxAttribute(parent)) && parent.name === node) return false;
  if ((ts.isFunctionDeclaration(parent) || ts.isClassDeclaration(parent) || ts.isVariableDeclaration(parent) || ts.isParameter(parent) || ts.isBindingElement(parent)) && parent.name === node) return false;
  return true;
}

const isInnerOfChain = (node: ts.Node): boolean => (ts.isPropertyAccessExpression(node.parent) || ts.isElementAccessExpression(node.parent)) && node.parent.expression === node;

/** Follows `a.b.c` from a binding through the imported values, stopping at the first endpoint or string. */
function resolveChain(node: ts.Expression, bindings: ReadonlyMap<string, unknown>): unknown {
  const names: string[] = [];
  let at: ts.Expression = node;
  for (;;) {
    if (ts.isPropertyAccessExpression(at)) names.unshift(at.name.text);
    else if (ts.isElementAccessExpression(at) && stringOf(at.argumentExpression) !== null) names.unshift(stringOf(at.argumentExpression)!);
    else break;
    at = at.expression;
  }
  if (!ts.isIdentifier(at) || !bindings.has(at.text)) return undefined;
  let value = bindings.get(at.text);
  for (const name of names) {
    if (isEndpoint(value) || typeof value !== 'object' || value === null) break;
    value = (value as Record<string, unknown>)[name];
  }
  return value;
}
