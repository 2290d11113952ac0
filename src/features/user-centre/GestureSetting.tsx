import { AppstoreOutlined } from '@ant-design/icons';
import { Button, List, Modal, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { patternProblem, PATTERN_PROBLEM_TEXT, type Pattern } from '../../../common/gesture/pattern';
import { GesturePad, type PadLook } from '../../components/GesturePad';
import { clearGesture, setGesture, useGestureStatusQuery } from '../../lib/data/gesture';
import { useFeedback } from '../../lib/feedback/feedback';
import { runsInstalledNow } from '../../lib/installed-app';

/**
 * 账号安全 → 手势密码 (issue 38), shown when the tenant's switch is on: set (drawn twice, the same
 * both times), change or turn off the caller's pattern. Setting it is offered in the installed app and
 * the desktop shell, where it is asked; a browser tab shows the state and may turn it off.
 */
export function GestureSetting() {
  const status = useGestureStatusQuery();
  const [open, setOpen] = useState(false);
  const { message, modal } = useFeedback();
  const client = useQueryClient();
  if (!status.data?.enabled) return null;
  const { set, idleMinutes } = status.data;
  const installed = runsInstalledNow();

  function turnOff() {
    modal.confirm({
      title: '关闭手势密码？',
      content: '关闭后，应用启动和闲置后不再需要验证手势密码。',
      okText: '关闭',
      cancelText: '取消',
      okButtonProps: { danger: true, ...({ 'data-testid': 'gesture-clear-confirm' } as Record<string, string>) },
      onOk: async () => {
        await clearGesture(client);
        message.success('手势密码已关闭');
      },
    });
  }

  const description = set
    ? `已开启：应用启动时和闲置或切到后台超过 ${idleMinutes} 分钟后需绘制手势密码解锁，连续输错 5 次将退出登录。`
    : installed
      ? `设置后，应用启动时和闲置超过 ${idleMinutes} 分钟后需绘制手势密码解锁。`
      : '请在已安装的应用（添加到桌面）或桌面客户端中设置手势密码。';

  return (
    <List.Item
      actions={[
        ...(installed ? [<Button key="set" onClick={() => setOpen(true)} data-testid="account-safe-gesture">{set ? '修改手势密码' : '设置手势密码'}</Button>] : []),
        ...(set ? [<Button key="off" danger onClick={turnOff} data-testid="account-safe-gesture-off">关闭</Button>] : []),
      ]}
    >
      <List.Item.Meta
        avatar={<AppstoreOutlined style={{ fontSize: 22, color: '#0958d9' }} />}
        title="手势密码"
        description={<span data-testid="account-safe-gesture-state">{set ? description : <Typography.Text type="secondary">{description}</Typography.Text>}</span>}
      />
      <Modal title={set ? '修改手势密码' : '设置手势密码'} open={open} onCancel={() => setOpen(false)} footer={null} destroyOnHidden width={360}>
        <SetPatternSteps
          onDone={async (pattern) => {
            await setGesture(client, pattern);
            setOpen(false);
            message.success('手势密码已设置');
          }}
        />
      </Modal>
    </List.Item>
  );
}

/** Draw, then draw the same again; a mismatch starts over. */
function SetPatternSteps({ onDone }: { onDone: (pattern: Pattern) => Promise<void> }) {
  const [first, setFirst] = useState<Pattern | null>(null);
  const [hint, setHint] = useState<{ text: string; error: boolean }>({ text: '请绘制手势密码，至少连接 4 个点', error: false });
  const [look, setLook] = useState<PadLook>('drawing');
  const [round, setRound] = useState(0);
  const [busy, setBusy] = useState(false);

  function retry(text: string, startOver: boolean) {
    setHint({ text, error: true });
    setLook('error');
    setTimeout(() => {
      if (startOver) setFirst(null);
      setLook('drawing');
      setRound((n) => n + 1);
    }, 700);
  }

  async function complete(pattern: Pattern) {
    const problem = patternProblem(pattern);
    if (problem) return retry(PATTERN_PROBLEM_TEXT[problem], false);
    if (!first) {
      setFirst(pattern);
      setHint({ text: '请再次绘制相同的手势密码', error: false });
      setRound((n) => n + 1);
      return;
    }
    if (first.join() !== pattern.join()) return retry('两次绘制的手势不一致，请重新设置', true);
    setBusy(true);
    try {
      await onDone(pattern);
    } catch {
      // shown by the API client; the user may try again
      setBusy(false);
      retry('设置失败，请重试', true);
    }
  }

  return (
    <div style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 12 }} data-testid="gesture-set">
      <Typography.Text type={hint.error ? 'danger' : 'secondary'} aria-live="assertive" data-testid="gesture-set-hint">
        {hint.text}
      </Typography.Text>
      <GesturePad key={round} label={first ? '再次绘制手势' : '绘制手势'} look={look} disabled={busy} onComplete={(p) => void complete(p)} testId="gesture-set-pad" />
    </div>
  );
}
