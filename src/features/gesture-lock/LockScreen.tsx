import { UserOutlined } from '@ant-design/icons';
import { Avatar, Button, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { ERRORS } from '../../../common/api/errors';
import type { UserDetails } from '../../../common/api/types';
import { GESTURE_MIN_POINTS, type Pattern } from '../../../common/gesture/pattern';
import { GesturePad, type PadLook } from '../../components/GesturePad';
import { ApiCallError } from '../../lib/api-client';
import { verifyGesture } from '../../lib/data/gesture';
import { useOnline } from '../../lib/data/online';
import { endAccountSession } from '../../lib/data/session';
import { logout } from '../../lib/session';

type Phase = { kind: 'asking' } | { kind: 'checking' } | { kind: 'signedOut'; text: string };

const WRONG_SHOWN_MS = 900;

/**
 * The lock screen: opaque over the whole window (the app under it is hidden, not dimmed). The
 * pattern is sent to the server, which alone judges it; the 5th wrong one in a row signs the session
 * out there, and this screen says so and leads to the login page.
 */
export function LockScreen({ checking, user, onUnlocked, onSignedOut }: { checking: boolean; user: UserDetails | undefined; onUnlocked: () => void; onSignedOut: () => void }) {
  const [, navigate] = useLocation();
  const online = useOnline();
  const [phase, setPhase] = useState<Phase>({ kind: 'asking' });
  const [hint, setHint] = useState<{ text: string; error: boolean }>({ text: '请绘制手势密码解锁', error: false });
  const [look, setLook] = useState<PadLook>('drawing');
  const [attempt, setAttempt] = useState(0);

  function again(text: string) {
    setHint({ text, error: true });
    setLook('error');
    setTimeout(() => {
      setLook('drawing');
      setAttempt((n) => n + 1);
    }, WRONG_SHOWN_MS);
  }

  async function submit(pattern: Pattern) {
    if (pattern.length < GESTURE_MIN_POINTS) return again(`至少连接 ${GESTURE_MIN_POINTS} 个点，请重新绘制`);
    setPhase({ kind: 'checking' });
    try {
      await verifyGesture(pattern, () => undefined);
      setLook('ok');
      onUnlocked();
    } catch (e) {
      setPhase({ kind: 'asking' });
      if (!(e instanceof ApiCallError)) return again('网络不可用，联网后才能验证手势密码');
      if (e.failure.kind === 'sessionTerminated') {
        onSignedOut();
        await endAccountSession();
        setPhase({ kind: 'signedOut', text: e.failure.errorMessage || ERRORS.SESSION_TERMINATED.message });
        return;
      }
      if (e.failure.kind === 'unauthorized') return navigate('/login', { replace: true });
      again(e.message || ERRORS.GESTURE_WRONG.message);
    }
  }

  async function signOut() {
    onSignedOut();
    await logout();
    navigate('/login', { replace: true });
  }

  return (
    <div
      data-gesture-lock=""
      data-testid="gesture-lock"
      role="dialog"
      aria-modal="true"
      aria-label="手势密码解锁"
      style={{ position: 'fixed', inset: 0, zIndex: 3000, background: 'linear-gradient(180deg, #f0f5ff 0%, #ffffff 60%)', overflowY: 'auto', display: 'flex', justifyContent: 'center' }}
    >
      <div style={{ width: '100%', maxWidth: 360, padding: '48px 16px 24px', display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 16 }}>
        <Avatar size={64} src={user?.avatar || undefined} icon={<UserOutlined />} alt="" />
        <Typography.Title level={4} style={{ margin: 0 }}>
          {user?.nickName || user?.website || '已锁定'}
        </Typography.Title>
        {phase.kind === 'signedOut' ? (
          <>
            <Typography.Text type="danger" role="alert" data-testid="gesture-lock-signed-out" style={{ textAlign: 'center' }}>
              {phase.text}
            </Typography.Text>
            <Button type="primary" onClick={() => navigate('/login', { replace: true })} data-testid="gesture-lock-relogin">
              重新登录
            </Button>
          </>
        ) : checking ? (
          <>
            <Spin />
            <Typography.Text type="secondary">{online ? '正在确认手势密码设置…' : '当前离线，联网后才能验证手势密码'}</Typography.Text>
          </>
        ) : (
          <>
            <Typography.Text type={hint.error ? 'danger' : 'secondary'} aria-live="assertive" data-testid="gesture-lock-hint" style={{ minHeight: 22, textAlign: 'center' }}>
              {online ? hint.text : '当前离线，联网后才能验证手势密码'}
            </Typography.Text>
            <GesturePad key={attempt} label="解锁手势" look={look} disabled={!online || phase.kind === 'checking'} onComplete={(p) => void submit(p)} testId="gesture-lock-pad" />
          </>
        )}
        {phase.kind !== 'signedOut' && (
          <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', justifyContent: 'center' }}>
            <Button type="link" onClick={() => void signOut()} data-testid="gesture-lock-forgot">
              忘记手势密码？使用账号密码登录
            </Button>
          </div>
        )}
      </div>
    </div>
  );
}
