import { describe, expect, it } from 'vitest';
import {
  conflictItemsOf,
  conflictsDone,
  currentConflict,
  decideConflict,
  decisionsFor,
  decisionsOf,
  folderIntoItself,
  startConflicts,
} from '../../../src/features/files/actions/conflict-model';

const clash = (id: string, name: string, existingIsDir = false) => ({ id, name, existingId: `x-${id}`, existingIsDir, suggestedName: `${name} (1)` });

describe('copy/move conflict decisions', () => {
  const selection = [
    { id: 'a', isDir: false },
    { id: 'b', isDir: true },
    { id: 'c', isDir: false },
    { id: 'd', isDir: false },
  ];
  const [a, b, c, d] = conflictItemsOf([clash('a', 'a.txt'), clash('b', 'docs', true), clash('c', 'c.pdf'), clash('d', 'd', true)], selection);

  it('joins the server clashes with what the client knows, ignoring unknown ids', () => {
    expect(a).toEqual({ id: 'a', name: 'a.txt', isDir: false, existingIsDir: false, suggestedName: 'a.txt (1)' });
    expect(b?.isDir).toBe(true);
    expect(conflictItemsOf([clash('zzz', 'z')], selection)).toEqual([]);
  });

  it('offers overwrite (a new version) only for a file onto a file', () => {
    expect(decisionsFor(a!)).toEqual(['rename', 'overwrite', 'skip']);
    expect(decisionsFor(b!)).toEqual(['rename', 'skip']);
    // a file onto a folder of the same name
    expect(decisionsFor(d!)).toEqual(['rename', 'skip']);
  });

  it('asks item by item, in order, and sends every decision', () => {
    let s = startConflicts([a!, b!, c!]);
    expect(currentConflict(s)).toBe(a);
    s = decideConflict(s, 'overwrite');
    expect(currentConflict(s)).toBe(b);
    s = decideConflict(s, 'skip');
    s = decideConflict(s, 'rename');
    expect(conflictsDone(s)).toBe(true);
    expect(currentConflict(s)).toBeNull();
    expect(decisionsOf(s)).toEqual({ a: 'overwrite', b: 'skip', c: 'rename' });
  });

  it('applies an answer to the rest only where it is allowed; folders are still asked', () => {
    let s = startConflicts([a!, b!, c!]);
    s = decideConflict(s, 'overwrite', true);
    expect(s.decided.get('c')).toBe('overwrite');
    expect(currentConflict(s)).toBe(b);
    s = decideConflict(s, 'rename');
    expect(conflictsDone(s)).toBe(true);
    expect(decisionsOf(s)).toEqual({ a: 'overwrite', b: 'rename', c: 'overwrite' });
  });

  it('refuses a decision the item does not allow', () => {
    const s = startConflicts([b!]);
    expect(decideConflict(s, 'overwrite')).toBe(s);
  });

  it('skip for all answers every item at once', () => {
    const s = decideConflict(startConflicts([a!, b!, c!]), 'skip', true);
    expect(conflictsDone(s)).toBe(true);
    expect(decisionsOf(s)).toEqual({ a: 'skip', b: 'skip', c: 'skip' });
  });

  it('never lets a folder go into itself or its sub-folders', () => {
    const folder = { id: 'b', isDir: true };
    expect(folderIntoItself([folder], ['x', 'b'])).toEqual(folder);
    expect(folderIntoItself([folder], ['b', 'sub', 'subsub'])).toEqual(folder);
    expect(folderIntoItself([folder], ['x', 'y'])).toBeNull();
    expect(folderIntoItself([folder], [])).toBeNull();
    // a file's id on the path is irrelevant (files have no children)
    expect(folderIntoItself([{ id: 'a', isDir: false }], ['a'])).toBeNull();
  });
});
