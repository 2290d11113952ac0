import { describe, expect, it } from 'vitest';
import { API } from '../../../common/api/paths';
import type { AnyEndpoint, DataOf } from '../../../common/api/endpoint';
import type { UploadConfig } from '../../../common/transfer/protocol';
import { createUploadConfigCache } from '../../../workers/engine/upload-config-cache';

const CONFIG = { chunkSize: 16 * 1024 * 1024, maxFileSize: 1024 ** 3 } as UploadConfig;

function fakeApi(answers: Array<() => Promise<UploadConfig>>) {
  const paths: string[] = [];
  return {
    paths,
    send: <E extends AnyEndpoint>(entry: E): Promise<DataOf<E>> => {
      paths.push(entry.path);
      return answers.shift()!() as Promise<DataOf<E>>;
    },
  };
}

describe('upload config cache', () => {
  it('asks the server once for many items, and again after the time to live', async () => {
    let clock = 0;
    const api = fakeApi([async () => CONFIG, async () => ({ ...CONFIG, chunkSize: 4 * 1024 * 1024 })]);
    const config = createUploadConfigCache(api, () => clock, 60_000);
    const signal = new AbortController().signal;
    const first = await Promise.all(Array.from({ length: 50 }, () => config(signal)));
    expect(first.every((c) => c.chunkSize === CONFIG.chunkSize)).toBe(true);
    expect(api.paths).toEqual([API.uploadConfig]);
    clock = 60_000;
    expect((await config(signal)).chunkSize).toBe(4 * 1024 * 1024);
    expect(api.paths).toHaveLength(2);
  });

  it('a failed answer is not kept: the next item asks again', async () => {
    const api = fakeApi([async () => Promise.reject(new Error('network')), async () => CONFIG]);
    const config = createUploadConfigCache(api, () => 0);
    const signal = new AbortController().signal;
    await expect(config(signal)).rejects.toThrow('network');
    expect(await config(signal)).toEqual(CONFIG);
    expect(api.paths).toHaveLength(2);
  });

  it('an item paused while waiting stops waiting; the others still get the shared answer', async () => {
    let answer!: (c: UploadConfig) => void;
    const api = fakeApi([() => new Promise<UploadConfig>((resolve) => (answer = resolve))]);
    const config = createUploadConfigCache(api, () => 0);
    const paused = new AbortController();
    const waiting = config(paused.signal);
    const other = config(new AbortController().signal);
    paused.abort(new DOMException('paused', 'AbortError'));
    await expect(waiting).rejects.toThrow('paused');
    answer(CONFIG);
    expect(await other).toEqual(CONFIG);
    expect(api.paths).toHaveLength(1);
  });
});
