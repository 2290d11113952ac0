import { describe, expect, it } from 'vitest';
import {
  conflictsDone,
  currentConflict,
  decideConflict,
  decisionsFor,
  folderIntoItself,
  resolutionsOf,
  startConflicts,
} from '../../../src/features/files/conflict-model';

const a = { id: 'a', name: 'a.txt', isDir: false };
const b = { id: 'b', name: 'docs', isDir: true };
const c = { id: 'c', name: 'c.pdf', isDir: false };

describe('copy/move conflict decisions', () => {
  it('offers new version for files only', () => {
    expect(decisionsFor(a)).toEqual(['rename', 'newVersion', 'skip']);
    expect(decisionsFor(b)).toEqual(['rename', 'skip']);
  });

  it('asks item by item, in order', () => {
    let s = startConflicts([a, b, c]);
    expect(currentConflict(s)).toBe(a);
    s = decideConflict(s, 'newVersion');
    expect(currentConflict(s)).toBe(b);
    s = decideConflict(s, 'skip');
    s = decideConflict(s, 'rename');
    expect(conflictsDone(s)).toBe(true);
    expect(currentConflict(s)).toBeNull();
    expect(resolutionsOf(s)).toEqual([
      { id: 'a', decision: 'newVersion' },
      { id: 'c', decision: 'rename' },
    ]);
  });

  it('applies an answer to the rest only where it is allowed; folders are still asked', () => {
    let s = startConflicts([a, b, c]);
    s = decideConflict(s, 'newVersion', true);
    expect(s.decided.get('c')).toBe('newVersion');
    expect(currentConflict(s)).toBe(b);
    s = decideConflict(s, 'rename');
    expect(conflictsDone(s)).toBe(true);
    expect(resolutionsOf(s).map((r) => r.id).sort()).toEqual(['a', 'b', 'c']);
  });

  it('refuses a decision the item does not allow', () => {
    const s = startConflicts([b]);
    expect(decideConflict(s, 'newVersion')).toBe(s);
  });

  it('skip for all sends nothing', () => {
    const s = decideConflict(startConflicts([a, b, c]), 'skip', true);
    expect(conflictsDone(s)).toBe(true);
    expect(resolutionsOf(s)).toEqual([]);
  });

  it('never lets a folder go into itself or its sub-folders', () => {
    expect(folderIntoItself([b], ['x', 'b'])).toEqual(b);
    expect(folderIntoItself([b], ['b', 'sub', 'subsub'])).toEqual(b);
    expect(folderIntoItself([b], ['x', 'y'])).toBeNull();
    expect(folderIntoItself([b], [])).toBeNull();
    // a file's id on the path is irrelevant (files have no children)
    expect(folderIntoItself([a], ['a'])).toBeNull();
  });
});
