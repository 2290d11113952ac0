import { describe, expect, it } from 'vitest';
import { codesOfAnswer, isPermitted } from '../../../src/lib/button-permissions';

describe('button permissions (spec §6)', () => {
  it('hides a button whose code is missing from the list', () => {
    expect(isPermitted(new Set(['file:rename']), 'file:delete')).toBe(false);
    expect(isPermitted(new Set(['file:rename']), 'file:rename')).toBe(true);
  });

  it('shows every button when the list is empty', () => {
    expect(isPermitted(new Set(), 'file:delete')).toBe(true);
    expect(isPermitted(new Set(), 'system:manage')).toBe(true);
  });

  it('shows no gated button before the list has loaded', () => {
    expect(isPermitted(null, 'file:rename')).toBe(false);
  });

  it('reads the permissions query: its codes; none known while it loads; every button after a refusal', () => {
    const codes = codesOfAnswer([{ code: 'file:rename' }, { code: 'file:delete' }], false);
    expect(codes && [...codes].sort()).toEqual(['file:delete', 'file:rename']);
    expect(codesOfAnswer(undefined, false)).toBeNull();
    expect(isPermitted(codesOfAnswer(undefined, true), 'file:delete')).toBe(true);
    // an answer already in the cache wins over a later failed refresh
    expect(isPermitted(codesOfAnswer([{ code: 'file:rename' }], true), 'file:delete')).toBe(false);
  });
});
