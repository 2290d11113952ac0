import { describe, expect, it } from 'vitest';
import { findStatusText } from '../../../src/components/document/FindBar';
import { classifyPreviewAnswer, pendingDelayMs, sleep } from '../../../src/components/document/pending';
import { documentTargetOf, documentTargetQuery } from '../../../src/components/document/target';
import { clampScale, MAX_SCALE, MIN_SCALE, percentOf, pinchScale, zoomIn, zoomOut } from '../../../src/components/document/zoom';
import { ERRORS } from '../../../common/api/errors';
import { viewerWatermark } from '../../../src/lib/watermark-text';

const coded = (code: string, errorMessage: string) => ({ errorCode: code, errorMessage });

describe('document viewer zoom', () => {
  it('steps through round stops from wherever a fit left it', () => {
    expect(zoomIn(1)).toBe(1.1);
    expect(zoomOut(1)).toBe(0.9);
    // A fitted 1.137 goes to the next stop either way, never to itself.
    expect(zoomIn(1.137)).toBe(1.25);
    expect(zoomOut(1.137)).toBe(1.1);
    expect(zoomIn(MAX_SCALE)).toBe(MAX_SCALE);
    expect(zoomOut(MIN_SCALE)).toBe(MIN_SCALE);
    expect(percentOf(1.25)).toBe('125%');
  });
  it('pinches relative to where the fingers started, within bounds', () => {
    expect(pinchScale(1, 100, 200)).toBe(2);
    expect(pinchScale(2, 200, 100)).toBe(1);
    expect(pinchScale(1, 100, 10_000)).toBe(MAX_SCALE);
    expect(pinchScale(1, 0, 50)).toBe(1);
    expect(clampScale(0.01)).toBe(MIN_SCALE);
  });
});

describe('a document preview before its pages', () => {
  it('tells a rendition being made from one that cannot be, and from other refusals', () => {
    expect(classifyPreviewAnswer(400, coded(ERRORS.PREVIEW_PENDING.code, ERRORS.PREVIEW_PENDING.message), 'x')).toEqual({ kind: 'pending' });
    expect(classifyPreviewAnswer(202, null, 'x')).toEqual({ kind: 'pending' });
    expect(classifyPreviewAnswer(400, coded(ERRORS.PREVIEW_UNSUPPORTED.code, ERRORS.PREVIEW_UNSUPPORTED.message), 'x')).toEqual({ kind: 'unsupported', message: ERRORS.PREVIEW_UNSUPPORTED.message });
    expect(classifyPreviewAnswer(400, coded('SHR-8001', '分享已失效'), 'x')).toEqual({ kind: 'failed', message: '分享已失效' });
    expect(classifyPreviewAnswer(502, 'Bad Gateway', '无法加载预览')).toEqual({ kind: 'failed', message: '无法加载预览' });
  });
  it('asks again after 1, 2, 4, 8 s, then every 15 s', () => {
    expect([0, 1, 2, 3, 4, 5, 30].map(pendingDelayMs)).toEqual([1000, 2000, 4000, 8000, 15_000, 15_000, 15_000]);
  });
  it('stops waiting as soon as the preview closes', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const waiting = sleep(60_000, controller.signal);
    controller.abort(new Error('closed'));
    await expect(waiting).rejects.toThrow('closed');
    expect(Date.now() - started).toBeLessThan(1000);
    await expect(sleep(10, AbortSignal.abort(new Error('already')))).rejects.toThrow('already');
    await expect(sleep(5, new AbortController().signal)).resolves.toBeUndefined();
  });
});

describe('where a document opens', () => {
  it('reads and writes ?page=&term=', () => {
    expect(documentTargetOf(new URLSearchParams('page=3&term=%E5%90%88%E5%90%8C'))).toEqual({ page: 3, term: '合同' });
    expect(documentTargetOf(new URLSearchParams('term=%20x%20'))).toEqual({ term: 'x' });
    expect(documentTargetOf(new URLSearchParams('page=0'))).toBeNull();
    expect(documentTargetOf(new URLSearchParams('page=2.5&term='))).toBeNull();
    expect(documentTargetOf(new URLSearchParams(''))).toBeNull();
    expect(documentTargetQuery({ page: 7, term: '季度 报告' })).toBe('page=7&term=%E5%AD%A3%E5%BA%A6+%E6%8A%A5%E5%91%8A');
    expect(documentTargetOf(new URLSearchParams(documentTargetQuery({ page: 7, term: '季度 报告' })))).toEqual({ page: 7, term: '季度 报告' });
  });
});

describe('the find bar', () => {
  it('says where it is among the hits, or that there are none', () => {
    expect(findStatusText('', { state: 'found', current: 1, total: 2 })).toBe('');
    expect(findStatusText('a', { state: 'found', current: 1, total: 2 })).toBe('1 / 2');
    expect(findStatusText('a', { state: 'pending', current: 1, total: 2 })).toBe('1 / 2…');
    expect(findStatusText('a', { state: 'pending', current: 0, total: 0 })).toBe('查找中…');
    expect(findStatusText('a', { state: 'none', current: 0, total: 0 })).toBe('无结果');
  });
});

describe('the viewer’s watermark line', () => {
  it('names the viewer (name and account) and the time', () => {
    const now = new Date(2026, 10, 29, 21, 5).getTime();
    expect(viewerWatermark({ nickName: '张三', website: 'zhangsan' }, now)).toBe('张三 zhangsan 2026-11-29 21:05');
    expect(viewerWatermark({ nickName: 'zhangsan', website: 'zhangsan' }, now)).toBe('zhangsan 2026-11-29 21:05');
  });
});
