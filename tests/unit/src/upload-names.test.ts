import { describe, expect, it } from 'vitest';
import { applyNameChoices, choiceProblem, defaultChoice, findNameIssues, type NameChoice } from '../../../src/features/files/uploads/upload-names';

describe('names of a pick, checked before queueing', () => {
  it('finds the bad names of lone files, with the reason and the full-width suggestion', () => {
    const issues = findNameIssues(['方案[草稿],v1.docx', 'ok.txt', 'x.exe.']);
    expect(issues.map((i) => [i.path, i.folder, i.suggestion, i.files])).toEqual([
      ['方案[草稿],v1.docx', false, '方案【草稿】，v1.docx', 1],
      ['x.exe.', false, 'x.exe', 1],
    ]);
    expect(issues[0]!.problem.message).toContain('名称不能包含以下字符');
    expect(issues[1]!.problem.message).toBe('名称不能以点号结尾');
  });

  it('asks once for a bad folder of a folder upload, counting the files under it, and still checks the names inside', () => {
    const paths = ['资料[2024]/a.txt', '资料[2024]/sub/b.txt', '资料[2024]/c,d.txt', 'fine/e.txt'];
    const issues = findNameIssues(paths);
    expect(issues.map((i) => [i.path, i.folder, i.files])).toEqual([
      ['资料[2024]', true, 3],
      ['资料[2024]/c,d.txt', false, 1],
    ]);
  });

  it('applies the answers: the suggestion by default, a typed name, or the path left out', () => {
    const paths = ['资料[2024]/a.txt', '资料[2024]/c,d.txt', 'x|y.txt', 'ok.txt'];
    const issues = findNameIssues(paths);
    expect(applyNameChoices(paths, issues, new Map())).toEqual(['资料【2024】/a.txt', '资料【2024】/c，d.txt', 'x｜y.txt', 'ok.txt']);
    const choices = new Map<string, NameChoice>([
      ['资料[2024]', { kind: 'rename', name: ' 资料2024 ' }],
      ['x|y.txt', { kind: 'skip' }],
    ]);
    expect(applyNameChoices(paths, issues, choices)).toEqual(['资料2024/a.txt', '资料2024/c，d.txt', null, 'ok.txt']);
    // A skipped folder leaves out everything under it.
    expect(applyNameChoices(paths, issues, new Map([['资料[2024]', { kind: 'skip' }]]))).toEqual([null, null, 'x｜y.txt', 'ok.txt']);
  });

  it('refuses a typed name the rule refuses, and offers typing when there is nothing to suggest', () => {
    const [issue] = findNameIssues(['a,b.txt']);
    expect(choiceProblem(issue!, { kind: 'rename', name: 'a[1].txt' })).toContain('名称不能包含以下字符');
    expect(choiceProblem(issue!, { kind: 'rename', name: 'a1.txt' })).toBeNull();
    expect(choiceProblem(issue!, defaultChoice(issue!))).toBeNull();
    const [dots] = findNameIssues(['..']);
    expect(dots!.suggestion).toBeNull();
    expect(defaultChoice(dots!)).toEqual({ kind: 'rename', name: '' });
    expect(choiceProblem(dots!, defaultChoice(dots!))).toBe('名称不能为空');
    expect(choiceProblem(dots!, { kind: 'replace' })).toBe('请输入新名称');
  });
});
