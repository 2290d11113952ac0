/**
 * What an unreachable server is called (workers/node/network-failure.ts): a real refused connection
 * through Node's fetch, and the causes undici reports for DNS, TLS and timeouts.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { describeNetworkFailure, isNetworkFailure, unreachableMessage } from '../../../workers/node/network-failure';

const failed = (cause: object) => Object.assign(new TypeError('fetch failed'), { cause });

describe('network failure messages', () => {
  it('names the address and ECONNREFUSED for a port nobody listens on', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise((r) => probe.close(r));
    const error = await fetch(`http://127.0.0.1:${port}/api/x`).catch((e: unknown) => e);
    expect(isNetworkFailure(error)).toBe(true);
    expect(unreachableMessage(`http://127.0.0.1:${port}/api`, error)).toBe(`无法连接服务器 http://127.0.0.1:${port}：连接被拒绝，服务器没有在这个地址和端口上运行（ECONNREFUSED）`);
  });

  it('tells DNS, TLS and timeouts apart', () => {
    expect(describeNetworkFailure(failed(Object.assign(new Error('getaddrinfo ENOTFOUND pan.example.cn'), { code: 'ENOTFOUND' })))).toBe('找不到这个主机名（DNS）（ENOTFOUND）');
    expect(describeNetworkFailure(failed(Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' })))).toContain('TLS 证书已过期');
    expect(describeNetworkFailure(failed(Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' })))).toContain('连接超时');
    expect(describeNetworkFailure(failed(Object.assign(new Error('odd'), { code: 'EWHATEVER' })))).toBe('odd（EWHATEVER）');
    expect(describeNetworkFailure(new TypeError('fetch failed'))).toBe('fetch failed');
  });
});
