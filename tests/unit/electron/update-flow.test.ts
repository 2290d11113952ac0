/**
 * The update flow of spec §1 (electron/update-flow.ts), driven event by event as electron/updater.ts
 * drives it: client type 3/4 comes from the build, the server's ClientVersion decides forced or not.
 */
import { describe, expect, it } from 'vitest';
import { compareVersions, initialUpdateState, updateFlow, UPDATE_TEXT, type UpdateEvent, type UpdateState } from '../../../electron/update-flow';

const CURRENT = '1.2.0';

function run(events: UpdateEvent[], from: UpdateState = initialUpdateState()) {
  let state = from;
  const effects: string[] = [];
  for (const event of events) {
    const next = updateFlow(state, event, CURRENT);
    state = next.state;
    effects.push(...next.effects.map((e) => e.type));
  }
  return { state, effects };
}

const offered = (versionName: string, isForce = false) => ({ type: 'versionFetched' as const, version: { versionName, versionDesc: '修复了若干问题', isForce } });

describe('update flow (spec §1)', () => {
  it('compares versions numerically', () => {
    expect(compareVersions('1.10.0', '1.9.3')).toBe(1);
    expect(compareVersions('v2.0', '2.0.0')).toBe(0);
    expect(compareVersions('1.2.0', '1.2.1')).toBe(-1);
  });

  it('not forced: asks whether to check, then whether to download, then whether to install', () => {
    let r = run([{ type: 'start', manual: false }]);
    expect(r.effects).toEqual(['fetchVersion']);
    r = run([offered('1.3.0')], r.state);
    expect(r.state).toMatchObject({ kind: 'askCheck', release: { versionName: '1.3.0', versionDesc: '修复了若干问题', forced: false } });
    if (r.state.kind === 'askCheck') expect(UPDATE_TEXT.askCheck(r.state.release)).toContain('1.3.0');
    r = run([{ type: 'accept' }], r.state);
    expect(r).toMatchObject({ state: { kind: 'checking' }, effects: ['checkFeed'] });
    r = run([{ type: 'feedAvailable' }], r.state);
    expect(r).toMatchObject({ state: { kind: 'askDownload' }, effects: ['show'] });
    r = run([{ type: 'accept' }, { type: 'progress', percent: 40 }, { type: 'progress', percent: 30 }], r.state);
    expect(r.state).toMatchObject({ kind: 'downloading', percent: 40 });
    expect(r.effects).toContain('download');
    r = run([{ type: 'downloaded' }], r.state);
    expect(r).toMatchObject({ state: { kind: 'askInstall' }, effects: ['show'] });
    r = run([{ type: 'accept' }], r.state);
    expect(r).toMatchObject({ state: { kind: 'installing' }, effects: ['install'] });
  });

  it('not forced: every "no" ends the flow', () => {
    expect(run([{ type: 'start', manual: false }, offered('1.3.0'), { type: 'decline' }]).state).toEqual({ kind: 'idle' });
    expect(run([{ type: 'start', manual: false }, offered('1.3.0'), { type: 'accept' }, { type: 'feedAvailable' }, { type: 'decline' }]).state).toEqual({ kind: 'idle' });
    const installLater = run([{ type: 'start', manual: false }, offered('1.3.0'), { type: 'accept' }, { type: 'feedAvailable' }, { type: 'accept' }, { type: 'downloaded' }, { type: 'decline' }]);
    expect(installLater.state).toEqual({ kind: 'idle' });
    expect(installLater.effects).not.toContain('install');
  });

  it('forced: a prompt that cannot be dismissed, then download and install without asking again', () => {
    let r = run([{ type: 'start', manual: false }, offered('2.0.0', true)]);
    expect(r.state).toMatchObject({ kind: 'forcedPrompt', release: { versionName: '2.0.0', versionDesc: '修复了若干问题', forced: true } });
    // Dismissing (Esc, closing) brings it back.
    r = run([{ type: 'dismissed' }, { type: 'decline' }], r.state);
    expect(r.state.kind).toBe('forcedPrompt');
    expect(r.effects).toEqual(['show', 'show']);
    r = run([{ type: 'accept' }, { type: 'feedAvailable' }], r.state);
    expect(r.state.kind).toBe('downloading');
    expect(r.effects).toEqual(['checkFeed', 'download', 'show']);
    // A failed download offers only a retry.
    r = run([{ type: 'downloadFailed', message: 'ECONNRESET' }, { type: 'decline' }], r.state);
    expect(r.state.kind).toBe('downloadFailed');
    r = run([{ type: 'accept' }, { type: 'downloaded' }], r.state);
    expect(r).toMatchObject({ state: { kind: 'installing' } });
    expect(r.effects).toContain('install');
  });

  it('a failed check shows 检查更新失败, at start too', () => {
    const r = run([{ type: 'start', manual: false }, { type: 'versionFailed', message: 'HTTP 502' }]);
    expect(r).toMatchObject({ state: { kind: 'failed', message: 'HTTP 502' }, effects: ['fetchVersion', 'show'] });
    expect(UPDATE_TEXT.checkFailed).toBe('检查更新失败');
    expect(run([{ type: 'dismissed' }], r.state).state).toEqual({ kind: 'idle' });
    const feed = run([{ type: 'start', manual: true }, offered('1.3.0'), { type: 'accept' }, { type: 'feedFailed', message: '404' }]);
    expect(feed.state).toMatchObject({ kind: 'failed' });
  });

  it('nothing newer: silent at start, 当前已是最新版本 when checked by hand', () => {
    expect(run([{ type: 'start', manual: false }, offered('1.2.0')]).state).toEqual({ kind: 'idle' });
    expect(run([{ type: 'start', manual: false }, offered('')]).state).toEqual({ kind: 'idle' });
    expect(run([{ type: 'start', manual: true }, offered('1.1.9')])).toMatchObject({ state: { kind: 'upToDate' }, effects: ['fetchVersion', 'show'] });
  });

  it('runs one flow at a time, and ignores events that do not belong to the state', () => {
    const asking = run([{ type: 'start', manual: false }, offered('1.3.0')]).state;
    expect(run([{ type: 'start', manual: true }], asking)).toEqual({ state: asking, effects: [] });
    expect(run([{ type: 'downloaded' }, { type: 'feedAvailable' }], asking).state).toBe(asking);
  });
});
