/**
 * The packaging configuration (electron-builder.yml) passes electron-builder's own validation (its
 * JSON schema), and names what the desktop needs: the three platforms, the clouddrive:// scheme, the
 * bundles and the one native module. Packaging itself downloads Electron's binary: not possible here.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../../..');
const require = createRequire(import.meta.url);

describe('electron-builder configuration', () => {
  it('is valid for electron-builder and covers Windows, macOS and Linux', async () => {
    const yaml = require('js-yaml') as { load(text: string): unknown };
    const config = yaml.load(readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>;
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
      validateConfiguration(config: unknown, debugLogger: { add(key: string, value: unknown): void }): Promise<void>;
    };
    await validateConfiguration(config, { add: () => undefined });
    expect(Object.keys(config)).toEqual(expect.arrayContaining(['win', 'mac', 'linux', 'protocols', 'files']));
    expect(JSON.stringify(config.protocols)).toContain('clouddrive');
    expect(config.files).toEqual(expect.arrayContaining(['dist-electron/**/*', 'node_modules/better-sqlite3/**/*']));
    expect((config.extraMetadata as { main: string }).main).toBe('dist-electron/main.js');
  }, 30_000); // loading app-builder-lib's schema takes 4 s on a quiet 2-core machine

  it('a wrong key is refused by that validation (the test does check)', async () => {
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
      validateConfiguration(config: unknown, debugLogger: { add(key: string, value: unknown): void }): Promise<void>;
    };
    await expect(validateConfiguration({ appId: 'x', winn: {} }, { add: () => undefined })).rejects.toThrow();
  });
});
