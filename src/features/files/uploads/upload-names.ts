/**
 * The names of a pick, checked before anything is queued (spec §5's first rule, the server's own
 * check: common/validation/names.ts): every file name and, in a folder upload, every folder on the
 * way. Each bad name is one issue with its Chinese reason and the name offered in its place (the
 * full-width twins of suggestFileName); a folder's issue covers every file under it, so a folder
 * `资料[2024]` of 500 files is one question, not 500. The user's answer per issue — take the
 * suggestion, type a name, or leave it out — turns the pick's paths into the ones to queue.
 */
import { checkFileName, normalizeFileName, suggestFileName, type NameProblem } from '../../../../common/validation/names';

export interface NameIssue {
  /** The path up to and including the bad name: `资料[2024]`, `资料[2024]/a,b.txt`; a lone file's name. */
  path: string;
  /** The bad name itself (the path's last part). */
  name: string;
  folder: boolean;
  problem: NameProblem;
  /** The valid name closest to it, or null when there is none to offer (the user types one). */
  suggestion: string | null;
  /** Files of the pick this name is on the way to (1 for a file). */
  files: number;
}

export type NameChoice = { kind: 'replace' } | { kind: 'rename'; name: string } | { kind: 'skip' };

/** 'a//b/./c' → ['a', 'b', 'c']: how the engine splits a relative path (workers/engine/folders.ts). */
function partsOf(path: string): string[] {
  return path.split('/').filter((p) => p !== '' && p !== '.');
}

/**
 * The bad names of a pick, parents before their contents, in pick order. `paths`: a lone file's name,
 * or a folder entry's relative path (`资料/2024/a.txt`). A name under a bad folder is checked too: the
 * answer for the folder does not fix it.
 */
export function findNameIssues(paths: readonly string[]): NameIssue[] {
  const issues = new Map<string, NameIssue>();
  for (const path of paths) {
    const parts = partsOf(path);
    // A path that splits into nothing is its own (empty) name: checkFileName says why.
    if (parts.length === 0) parts.push(path);
    let prefix = '';
    parts.forEach((name, i) => {
      prefix = i === 0 ? name : `${prefix}/${name}`;
      const known = issues.get(prefix);
      if (known) {
        known.files++;
        return;
      }
      const problem = checkFileName(name);
      if (problem) issues.set(prefix, { path: prefix, name, folder: i < parts.length - 1, problem, suggestion: suggestFileName(name), files: 1 });
    });
  }
  return [...issues.values()];
}

/** The name an answered issue takes, or null to leave its files out. */
function answeredName(issue: NameIssue, choice: NameChoice | undefined): string | null {
  const answer = choice ?? { kind: 'replace' };
  if (answer.kind === 'skip') return null;
  if (answer.kind === 'rename') return normalizeFileName(answer.name);
  return issue.suggestion;
}

/**
 * The pick's paths with the answers applied: each bad name replaced by the name chosen for it, or null
 * for a path left out (its own name, or a folder on its way, skipped). An issue without an answer takes
 * its suggestion; one with neither is left out.
 */
export function applyNameChoices(paths: readonly string[], issues: readonly NameIssue[], choices: ReadonlyMap<string, NameChoice>): Array<string | null> {
  const byPath = new Map(issues.map((issue) => [issue.path, issue]));
  return paths.map((path) => {
    const parts = partsOf(path);
    if (parts.length === 0) parts.push(path);
    const out: string[] = [];
    let prefix = '';
    for (const [i, name] of parts.entries()) {
      prefix = i === 0 ? name : `${prefix}/${name}`;
      const issue = byPath.get(prefix);
      if (!issue) {
        out.push(name);
        continue;
      }
      const chosen = answeredName(issue, choices.get(prefix));
      if (chosen === null) return null;
      out.push(chosen);
    }
    return out.join('/');
  });
}

/** Whether an answer can be taken as it is: a typed name must pass the rule. */
export function choiceProblem(issue: NameIssue, choice: NameChoice | undefined): string | null {
  const answer = choice ?? { kind: 'replace' };
  if (answer.kind === 'replace' && issue.suggestion === null) return '请输入新名称';
  if (answer.kind === 'rename') return checkFileName(answer.name)?.message ?? null;
  return null;
}

/** The choice offered first: the suggestion when there is one, else a name to type. */
export function defaultChoice(issue: NameIssue): NameChoice {
  return issue.suggestion === null ? { kind: 'rename', name: '' } : { kind: 'replace' };
}

/** `file` under another name, same bytes (a File wrapping the same data: nothing is copied). */
export function renamedFile(file: File, name: string): File {
  return name === file.name ? file : new File([file], name, { type: file.type, lastModified: file.lastModified });
}
