import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLIENT_TYPE, resolveNetworkEnv } from '../../../common/api/client-env';
import { showsBeianFooter } from '../../../src/app/BeianFooter';
import { buildDefines } from '../../../vite.config';

const scripts = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> }).scripts;

describe('network builds (spec §1/§2/§9)', () => {
  it('build:internal and build:public select their Vite mode', () => {
    expect(scripts['build:internal']).toBe('vite build --mode internal');
    expect(scripts['build:public']).toBe('vite build --mode public');
    // npm start builds with the plain mode, so NETWORK_ENV picks the build.
    expect(scripts.start).toMatch(/^npm run build && /);
    expect(scripts.build).toBe('vite build && npm run build:server');
  });

  it('the mode decides; otherwise NETWORK_ENV; unset is internal', () => {
    expect(resolveNetworkEnv('public', undefined)).toBe('public');
    expect(resolveNetworkEnv('internal', 'public')).toBe('internal');
    expect(resolveNetworkEnv('production', 'public')).toBe('public');
    expect(resolveNetworkEnv('production', undefined)).toBe('internal');
    expect(resolveNetworkEnv('production', '')).toBe('internal');
  });

  it('refuses an unknown NETWORK_ENV instead of shipping the wrong build', () => {
    expect(() => resolveNetworkEnv('production', 'publik')).toThrow(/NETWORK_ENV must be 'internal' or 'public'/);
  });

  it('bakes the network env and the beian number into the app', () => {
    expect(buildDefines('public', { BEIAN_NUMBER: '沪ICP备12345678号', BUILD_ID: 'b1' })).toEqual({
      'import.meta.env.VITE_NETWORK_ENV': '"public"',
      'import.meta.env.VITE_BEIAN_NUMBER': '"沪ICP备12345678号"',
      'import.meta.env.VITE_BUILD_ID': '"b1"',
    });
    // Without BUILD_ID every build is its own version.
    expect(buildDefines('production', {})['import.meta.env.VITE_BUILD_ID']).toMatch(/^"\d{4}-\d\d-\d\dT/);
    expect(buildDefines('production', { NETWORK_ENV: 'public' })['import.meta.env.VITE_NETWORK_ENV']).toBe('"public"');
    expect(buildDefines('production', {})['import.meta.env.VITE_NETWORK_ENV']).toBe('"internal"');
  });

  it('client type is 3 for the internal build and 4 for the public build', () => {
    expect(CLIENT_TYPE).toEqual({ internal: 3, public: 4 });
  });

  it('shows the beian footer only on login paths of the public build', () => {
    expect(showsBeianFooter('public', '/login')).toBe(true);
    expect(showsBeianFooter('public', '/login/7')).toBe(true);
    expect(showsBeianFooter('public', '/main/file/personal')).toBe(false);
    expect(showsBeianFooter('public', '/initialPswChange')).toBe(false);
    expect(showsBeianFooter('internal', '/login')).toBe(false);
  });
});
