import { describe, expect, it } from 'vitest';
import { previewTypeOf } from '../../../common/files/preview';
import { spaceAllows, spaceMayModify } from '../../../common/files/space-roles';

describe('space roles (common/files/space-roles.ts)', () => {
  it('owner > manager > member > public, admins everything', () => {
    expect(spaceAllows('owner', 'deleteGroup')).toBe(true);
    expect(spaceAllows('manager', 'deleteGroup')).toBe(false);
    expect(spaceAllows('manager', 'manageMembers')).toBe(true);
    expect(spaceAllows('manager', 'manageOwners')).toBe(false);
    expect(spaceAllows('member', 'manageMembers')).toBe(false);
    expect(spaceAllows('member', 'write')).toBe(true);
    expect(spaceAllows(null, 'write')).toBe(true);
    expect(spaceAllows(null, 'renameGroup')).toBe(false);
    expect(spaceAllows('member', 'deleteGroup', true)).toBe(true);
  });
  it('members and public users modify only their own entries; managers any', () => {
    expect(spaceMayModify('member', 'u1', 'u1')).toBe(true);
    expect(spaceMayModify('member', 'u1', 'u2')).toBe(false);
    expect(spaceMayModify(null, 'u1', 'u2')).toBe(false);
    expect(spaceMayModify('manager', 'u1', 'u2')).toBe(true);
    expect(spaceMayModify(null, 'u1', 'u2', true)).toBe(true);
  });
});

describe('preview allow-list (common/files/preview.ts)', () => {
  it.each([
    ['a.PNG', 'image/png'],
    ['b.pdf', 'application/pdf'],
    ['c.txt', 'text/plain; charset=utf-8'],
    ['d.mp3', 'audio/mpeg'],
    ['e.mp4', 'video/mp4'],
    ['f.html', null],
    ['g.svg', null],
    ['h.xml', 'text/plain; charset=utf-8'],
    ['noext', null],
  ])('%s → %s', (name, type) => {
    expect(previewTypeOf(name)).toBe(type);
  });
});
