/**
 * The web app is built with the endpoint tables, not the declarations' schemas (common/api/endpoint-table.ts):
 * no script the service worker precaches — every chunk and worker of the build `npm start` serves — carries
 * TypeBox, and the tables api.call reads are there.
 */
import { describe, expect, it } from 'vitest';
import { baseUrl } from './browser';

/** Every script of the build, as the service worker's precache manifest lists them. */
async function builtScripts(): Promise<Map<string, string>> {
  const manifest = await (await fetch(`${baseUrl()}/sw.js`)).text();
  const urls = [...manifest.matchAll(/url:"([^"]+\.js)"/g)].map((m) => m[1]!);
  const scripts = new Map<string, string>();
  for (const url of urls) scripts.set(url, await (await fetch(`${baseUrl()}/${url}`)).text());
  return scripts;
}

describe('the client build', () => {
  it('ships the endpoint tables without TypeBox or any schema', async () => {
    const scripts = await builtScripts();
    expect(scripts.size).toBeGreaterThan(20);
    // TypeBox 1.x marks every schema it builds with a '~kind' key.
    expect([...scripts].filter(([, code]) => code.includes('~kind')).map(([url]) => url)).toEqual([]);
    const all = [...scripts.values()].join('\n');
    // The login entry as a plain table row (the minifier picks the quotes).
    expect(all).toMatch(/path:.\/spacex\/login\?ajax=true.,access:.public.,action:.auth\.login.,encoding:.form./);
  });
});
