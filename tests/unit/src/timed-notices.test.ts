import type { ArgsProps as MessageArgs, MessageInstance, MessageType } from 'antd/es/message/interface';
import type { ArgsProps as NotificationArgs, NotificationInstance } from 'antd/es/notification/interface';
import type { Key } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGE_SECONDS, NOTIFICATION_SECONDS, timedMessages, timedNotifications } from '../../../src/lib/feedback/timed-notices';

type Shown = MessageArgs & { onMouseEnter?: () => void; onMouseLeave?: () => void };

/** A stand-in for antd's message holder: records what was opened and destroyed. */
function fakeMessages() {
  const opened: Shown[] = [];
  const destroyed: (Key | undefined)[] = [];
  const closedByReturn: Key[] = [];
  const open = (config: MessageArgs): MessageType => {
    opened.push(config);
    const close = (() => void closedByReturn.push(config.key as Key)) as MessageType;
    close.then = () => Promise.resolve(true) as never;
    return close;
  };
  const typed = () => () => open({ content: 'not used' });
  const api: MessageInstance = { open, info: typed(), success: typed(), warning: typed(), error: typed(), loading: typed(), destroy: (key) => void destroyed.push(key) };
  return { api, opened, destroyed, closedByReturn };
}

function fakeNotifications() {
  const opened: { kind: string; config: NotificationArgs & { onMouseEnter?: () => void; onMouseLeave?: () => void } }[] = [];
  const destroyed: (Key | undefined)[] = [];
  const record = (kind: string) => (config: NotificationArgs) => void opened.push({ kind, config });
  const api: NotificationInstance = { open: record('open'), info: record('info'), success: record('success'), warning: record('warning'), error: record('error'), destroy: (key) => void destroyed.push(key) };
  return { api, opened, destroyed };
}

describe('toasts on one timer (no antd frame loop)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('opens a toast with antd’s timer off and closes it after antd’s default 3 s, calling onClose and resolving', async () => {
    const fake = fakeMessages();
    const messages = timedMessages(fake.api);
    const onClose = vi.fn();
    let resolved = false;
    void messages.success('已加入传输列表', onClose).then(() => (resolved = true));
    expect(fake.opened).toHaveLength(1);
    expect(fake.opened[0]).toMatchObject({ content: '已加入传输列表', type: 'success', duration: 0 });
    const key = fake.opened[0]!.key;
    expect(key).toBeTruthy();

    await vi.advanceTimersByTimeAsync(MESSAGE_SECONDS * 1000 - 1);
    expect(fake.destroyed).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(fake.destroyed).toEqual([key]);
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(resolved).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('takes the duration given, as a number argument or in the config', async () => {
    const fake = fakeMessages();
    const messages = timedMessages(fake.api);
    messages.error('失败', 5);
    messages.open({ content: 'x', duration: 1, key: 'k' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(fake.destroyed).toEqual(['k']);
    await vi.advanceTimersByTimeAsync(4000);
    expect(fake.destroyed).toEqual(['k', fake.opened[0]!.key]);
  });

  it('pauses while hovered and closes with the time that was left once the pointer leaves', async () => {
    const fake = fakeMessages();
    timedMessages(fake.api).info('看这里');
    const shown = fake.opened[0]!;
    await vi.advanceTimersByTimeAsync(1000);
    shown.onMouseEnter?.();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fake.destroyed).toEqual([]);
    shown.onMouseLeave?.();
    await vi.advanceTimersByTimeAsync(1999);
    expect(fake.destroyed).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(fake.destroyed).toEqual([shown.key]);
  });

  it('leaves a toast that stays (duration 0) to antd untouched, with no timer', () => {
    const fake = fakeMessages();
    timedMessages(fake.api).loading('处理中…', 0);
    expect(fake.opened[0]).toMatchObject({ content: '处理中…', duration: 0, type: 'loading' });
    expect(fake.opened[0]!.onMouseEnter).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('an update under the same key restarts the time; the old notice’s promise resolves', async () => {
    const fake = fakeMessages();
    const messages = timedMessages(fake.api);
    let firstResolved = false;
    void messages.open({ key: 'save', content: '保存中', duration: 2 }).then(() => (firstResolved = true));
    await vi.advanceTimersByTimeAsync(1500);
    messages.open({ key: 'save', content: '已保存', duration: 2 });
    await vi.advanceTimersByTimeAsync(0);
    expect(firstResolved).toBe(true);
    await vi.advanceTimersByTimeAsync(1000);
    expect(fake.destroyed).toEqual([]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(fake.destroyed).toEqual(['save']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('closing by hand ends the timer: onClose once, no later destroy', async () => {
    const fake = fakeMessages();
    const onClose = vi.fn();
    timedMessages(fake.api).open({ content: 'x', onClose });
    fake.opened[0]!.onClose?.(); // antd's own close (its close button)
    await vi.advanceTimersByTimeAsync(10_000);
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(fake.destroyed).toEqual([]);
  });

  it('the returned function closes the toast through antd', () => {
    const fake = fakeMessages();
    const close = timedMessages(fake.api).success('x');
    close();
    expect(fake.closedByReturn).toEqual([fake.opened[0]!.key]);
  });

  it('closing through the returned function ends the timer and resolves, without onClose (as antd)', async () => {
    const fake = fakeMessages();
    const onClose = vi.fn();
    let resolved = false;
    const close = timedMessages(fake.api).open({ content: 'x', onClose });
    void close.then(() => (resolved = true));
    close();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fake.closedByReturn).toEqual([fake.opened[0]!.key]);
    expect(fake.destroyed).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();
    expect(resolved).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('destroy() ends every timer', async () => {
    const fake = fakeMessages();
    const messages = timedMessages(fake.api);
    messages.success('a');
    messages.success('b');
    messages.destroy();
    expect(fake.destroyed).toEqual([undefined]);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('notifications on one timer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('closes after antd’s default 4.5 s through the same kind of call, and pauses on hover', async () => {
    const fake = fakeNotifications();
    timedNotifications(fake.api).success({ key: 'pwa-offline', title: '已可离线使用' });
    expect(fake.opened).toMatchObject([{ kind: 'success', config: { key: 'pwa-offline', duration: 0 } }]);
    fake.opened[0]!.config.onMouseEnter?.();
    await vi.advanceTimersByTimeAsync(NOTIFICATION_SECONDS * 1000 * 3);
    expect(fake.destroyed).toEqual([]);
    fake.opened[0]!.config.onMouseLeave?.();
    await vi.advanceTimersByTimeAsync(NOTIFICATION_SECONDS * 1000);
    expect(fake.destroyed).toEqual(['pwa-offline']);
  });

  it('a notification that stays (duration false or 0) goes to antd as it is', () => {
    const fake = fakeNotifications();
    const notifications = timedNotifications(fake.api);
    notifications.info({ title: '发现新版本', duration: false });
    notifications.open({ title: 'x', duration: 0 });
    expect(fake.opened.map((o) => o.config.duration)).toEqual([false, 0]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('closeTimed (a touch on a phone) closes every timed notification at once, as its timer would; one that waits for the user stays', () => {
    const fake = fakeNotifications();
    const notifications = timedNotifications(fake.api);
    const onClose = vi.fn();
    notifications.success({ key: 'pwa-offline', title: '已可离线使用', onClose });
    notifications.info({ key: 'pwa-update', title: '发现新版本', duration: 0 });
    notifications.closeTimed();
    expect(fake.destroyed).toEqual(['pwa-offline']);
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
    notifications.closeTimed();
    expect(fake.destroyed).toEqual(['pwa-offline']);
  });
});
