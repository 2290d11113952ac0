/**
 * A quiet chunk request (transport.ts ChunkRequest.quiet, the whole-file upload): its XHR gets no
 * `upload.onprogress` listener — with one, Chromium posts upload progress events to the engine's thread
 * ~10 times a second for the whole request (issue 43) — and the stall detection leaves it to its caller.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createXhrTransport, StallError, withStallDetection, type ChunkRequest, type ChunkTransport } from '../../../workers/engine/transport';

class FakeXhr {
  static last: FakeXhr | null = null;
  upload: { onprogress: ((event: { loaded: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  responseText = '';
  withCredentials = false;
  constructor() {
    FakeXhr.last = this;
  }
  open(): void {}
  setRequestHeader(): void {}
  getResponseHeader(): string | null {
    return null;
  }
  abort(): void {
    this.onabort?.();
  }
  send(): void {
    setTimeout(() => {
      this.status = 200;
      this.responseText = '{"ok":true}';
      this.onload?.();
    }, 0);
  }
}

// Node has no XMLHttpRequest: unstubbing removes the fake again rather than leaving the name defined.
afterEach(() => {
  vi.unstubAllGlobals();
  FakeXhr.last = null;
});

const request = (extra: Partial<ChunkRequest> = {}): ChunkRequest => ({
  url: '/api/chunk',
  body: new Blob([new Uint8Array(8)]),
  headers: {},
  signal: new AbortController().signal,
  onProgress: () => undefined,
  ...extra,
});

describe('quiet chunk requests', () => {
  it('an XHR sent quiet has no upload progress listener; an ordinary one has', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const transport = createXhrTransport();
    await transport(request({ quiet: true }));
    expect(FakeXhr.last!.upload.onprogress).toBeNull();
    await transport(request());
    expect(FakeXhr.last!.upload.onprogress).toBeTypeOf('function');
  });

  it('the stall detection leaves a quiet request to its caller', async () => {
    // Answers after 60 ms, showing no progress meanwhile; the stall timeout is 10 ms.
    const slow: ChunkTransport = (req) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => resolve({ status: 200, body: null, header: () => null }), 60);
        req.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(req.signal.reason as Error);
        });
      });
    const watched = withStallDetection(slow, 10);
    await expect(watched(request())).rejects.toBeInstanceOf(StallError);
    await expect(watched(request({ quiet: true }))).resolves.toMatchObject({ status: 200 });
  });
});
