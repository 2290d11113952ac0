import type { ArgsProps as MessageArgs, MessageInstance, MessageType } from 'antd/es/message/interface';
import type { ArgsProps as NotificationArgs, NotificationInstance } from 'antd/es/notification/interface';
import type { Key } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { deferredNotices, type NoticeApis } from '../../../src/lib/feedback/deferred-notices';

/** Stand-ins for antd's holders: a log of what was shown, closed and destroyed, in order. */
function fakeApis() {
  const log: string[] = [];
  const closers = new Map<Key, () => void>();
  const open = (config: MessageArgs): MessageType => {
    log.push(`message ${String(config.type)} ${String(config.content)}`);
    let closed!: () => void;
    const done = new Promise<boolean>((resolve) => (closed = () => resolve(true)));
    const close = (() => {
      log.push(`closed ${String(config.content)}`);
      closed();
    }) as MessageType;
    close.then = (f, r) => done.then(f, r);
    closers.set(config.key ?? String(config.content), closed);
    return close;
  };
  const typed = () => () => open({ content: 'not used' });
  const message: MessageInstance = { open, info: typed(), success: typed(), warning: typed(), error: typed(), loading: typed(), destroy: (key) => void log.push(`destroy message ${String(key)}`) };
  const record = (kind: string) => (config: NotificationArgs) => void log.push(`notification ${kind} ${String(config.title)}`);
  const notification: NotificationInstance = { open: record('open'), info: record('info'), success: record('success'), warning: record('warning'), error: record('error'), destroy: (key) => void log.push(`destroy notification ${String(key)}`) };
  return { apis: { message, notification } satisfies NoticeApis, log };
}

describe('notices whose antd part loads with the first one', () => {
  it('asks for nothing until a notice is shown; what waits is shown in order once the host is ready', () => {
    const load = vi.fn();
    const notices = deferredNotices(load);
    notices.message.destroy();
    notices.notification.destroy('x');
    expect(load).not.toHaveBeenCalled();

    void notices.message.error('登录失败');
    notices.notification.info({ title: '发现新版本' });
    void notices.message.open({ type: 'success', content: '已保存', key: 'k' });
    notices.message.destroy('k');
    expect(load).toHaveBeenCalled();

    const fake = fakeApis();
    notices.ready(fake.apis);
    expect(fake.log).toEqual(['message error 登录失败', 'notification info 发现新版本', 'message success 已保存', 'destroy message k']);

    // Once ready, straight through.
    notices.notification.success({ title: '完成' });
    expect(fake.log.at(-1)).toBe('notification success 完成');
  });

  it('a toast closed before the host was ready is never shown, and resolves as closed', async () => {
    const notices = deferredNotices(() => undefined);
    const toast = notices.message.loading('正在打开…', 0);
    let resolved: boolean | null = null;
    void toast.then((closed) => (resolved = closed));
    toast();
    await Promise.resolve();
    expect(resolved).toBe(true);
    const fake = fakeApis();
    notices.ready(fake.apis);
    expect(fake.log).toEqual([]);
  });

  it('a toast shown late closes through its stand-in and resolves when antd closes it', async () => {
    const notices = deferredNotices(() => undefined);
    const toast = notices.message.info('稍候');
    let resolved = false;
    void toast.then(() => (resolved = true));
    const fake = fakeApis();
    notices.ready(fake.apis);
    await Promise.resolve();
    expect(resolved).toBe(false);
    toast();
    await new Promise((r) => setTimeout(r, 0));
    expect(fake.log).toEqual(['message info 稍候', 'closed 稍候']);
    expect(resolved).toBe(true);
  });

  it('the host handing over new APIs (a phone turned) is used from then on', () => {
    const notices = deferredNotices(() => undefined);
    const first = fakeApis();
    const second = fakeApis();
    notices.ready(first.apis);
    notices.ready(second.apis);
    notices.notification.warning({ title: '注意' });
    expect(first.log).toEqual([]);
    expect(second.log).toEqual(['notification warning 注意']);
  });
});
