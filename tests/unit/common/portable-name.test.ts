import { describe, expect, it } from 'vitest';
import { portableName, shortenKeepingExtension, truncateUtf8 } from '../../../common/files/portable-name';

const bytes = (s: string) => Buffer.byteLength(s);

describe('portableName (ZIP member names every system extracts)', () => {
  it('maps what Windows refuses to _', () => {
    expect(portableName('a:b*c?"d<e>f|g\\h.txt')).toBe('a_b_c__d_e_f_g_h.txt');
    expect(portableName('x\u202Eexe.txt')).toBe('x_exe.txt');
    expect(portableName('tab\there')).toBe('tab_here');
  });
  it('prefixes device names and drops trailing dots and spaces', () => {
    expect(portableName('CON')).toBe('_CON');
    expect(portableName('com1.txt')).toBe('_com1.txt');
    expect(portableName('console.txt')).toBe('console.txt');
    expect(portableName('notes. . ')).toBe('notes');
    expect(portableName('...')).toBe('_');
    expect(portableName('')).toBe('_');
  });
  it('shortens a component over 255 bytes, keeping the extension and whole code points', () => {
    const long = portableName(`${'文'.repeat(120)}.pdf`);
    expect(bytes(long)).toBeLessThanOrEqual(255);
    expect(long.endsWith('.pdf')).toBe(true);
    expect(long.replace('.pdf', '')).toMatch(/^文+$/);
    expect(shortenKeepingExtension(`${'a'.repeat(300)}.${'e'.repeat(40)}`).length).toBe(255);
    expect(truncateUtf8('😀😀', 5)).toBe('😀');
  });
});
