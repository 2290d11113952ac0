import { describe, expect, it } from 'vitest';
import { isPermitted } from '../../../src/lib/button-permissions';

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
});
