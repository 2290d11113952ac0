/** The WebDAV If header (RFC 4918 §10.4): parsing of tagged and untagged lists, Not, tokens and ETags, and its evaluation. */
import { describe, expect, it } from 'vitest';
import { evaluateIf, parseIfHeader, submittedTokens, taggedPath, type IfResourceState } from '../../../server/dav/if-header';

const T = 'opaquelocktoken:e71d4fae-5dec-22d6-fea5-00a0c91e6be4';
const state = (etag: string | null, tokens: string[] = []): IfResourceState => ({ etag, lockTokens: new Set(tokens) });

describe('If header parsing', () => {
  it('reads untagged lists with tokens, etags and Not', () => {
    expect(parseIfHeader(`(<${T}> ["abc"]) (Not <DAV:no-lock> ["abc"])`)).toEqual([
      { resource: null, conditions: [{ not: false, token: T }, { not: false, etag: '"abc"' }] },
      { resource: null, conditions: [{ not: true, token: 'DAV:no-lock' }, { not: false, etag: '"abc"' }] },
    ]);
  });

  it('reads tagged lists, several lists per tag, and weak etags', () => {
    const lists = parseIfHeader(`<http://h/dav/a> (<${T}>) (["x"]) </dav/b> (Not [W/"y"])`);
    expect(lists.map((l) => l.resource)).toEqual(['http://h/dav/a', 'http://h/dav/a', '/dav/b']);
    expect(lists[2]!.conditions).toEqual([{ not: true, etag: 'W/"y"' }]);
    expect(taggedPath('http://h/dav/a%20b')).toBe('/dav/a%20b');
    expect(taggedPath('/dav/b')).toBe('/dav/b');
  });

  it('refuses what the grammar does not allow', () => {
    for (const bad of ['', '<http://h/a>', '()', '(<a>', '(x)', '(<a>) <http://h/b> (<c>)', '(Not)', '(["a")']) {
      expect(() => parseIfHeader(bad), bad).toThrow();
    }
  });

  it('counts tokens outside Not as submitted', () => {
    expect([...submittedTokens(parseIfHeader(`(<${T}>) (Not <DAV:no-lock>)`))]).toEqual([T]);
  });
});

describe('If header evaluation', () => {
  const at = (s: IfResourceState) => async () => s;

  it('is true when any list holds, every condition of it', async () => {
    const locked = state('"e1"', [T]);
    expect(await evaluateIf(parseIfHeader(`(<${T}> ["e1"])`), at(locked))).toBe(true);
    expect(await evaluateIf(parseIfHeader(`(<DAV:no-lock> ["e1"])`), at(locked))).toBe(false);
    expect(await evaluateIf(parseIfHeader(`(<${T}x>) (Not <DAV:no-lock>)`), at(locked))).toBe(true);
    expect(await evaluateIf(parseIfHeader(`(<${T}> ["e2"]) (Not <DAV:no-lock> ["e2"])`), at(locked))).toBe(false);
  });

  it('matches no etag on a resource that does not exist (Not of it holds)', async () => {
    expect(await evaluateIf(parseIfHeader('(["e1"])'), at(state(null)))).toBe(false);
    expect(await evaluateIf(parseIfHeader('(Not ["e1"])'), at(state(null)))).toBe(true);
  });

  it('evaluates tagged lists against the resource they name', async () => {
    const seen: Array<string | null> = [];
    const stateOf = async (r: string | null) => {
      seen.push(r);
      return r === '/dav/a' ? state('"a"') : state('"b"');
    };
    expect(await evaluateIf(parseIfHeader('</dav/a> (["b"]) </dav/b> (["b"])'), stateOf)).toBe(true);
    expect(seen).toEqual(['/dav/a', '/dav/b']);
    expect(await evaluateIf(parseIfHeader('</dav/a> (["b"])'), stateOf)).toBe(false);
  });
});
