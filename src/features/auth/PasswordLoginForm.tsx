import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Input, theme } from 'antd';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { LoginResult } from '../../../common/api/types';
import { PASSWORD_MAX_LENGTH } from '../../../common/constants';
import { CaptchaImageButton } from '../../components/CaptchaImageButton';
import { useCaptcha } from '../../lib/use-captcha';
import { login, validateCaptcha } from './auth-api';

interface Fields {
  username: string;
  password: string;
  captchaCode: string;
}

type FieldName = keyof Fields;

const REQUIRED: Record<FieldName, string> = { username: '请输入账号', password: '请输入密码', captchaCode: '请输入验证码' };
/** The early hint of captcha/validate on blur (the server has used that captcha up: a new one is shown). */
export const CAPTCHA_WRONG = '验证码错误，已换一张，请重新输入';

/** What is wrong with one field (null: nothing). Account and captcha must hold more than spaces. */
function fieldError(name: FieldName, value: string): string | null {
  const empty = name === 'password' ? value === '' : value.trim() === '';
  return empty ? REQUIRED[name] : null;
}

/** A labelled row with its message below, laid out as antd's vertical form. */
function Field({ id, label, error, children }: { id: string; label: string; error: string | null; children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <div style={{ marginBottom: 24 }}>
      <label htmlFor={id} style={{ display: 'block', paddingBottom: 8 }}>
        {label}
      </label>
      {children}
      {error && (
        <div id={`${id}-error`} role="alert" style={{ color: token.colorError, marginTop: 4 }}>
          {error}
        </div>
      )}
    </div>
  );
}

/**
 * Account, password (AES-encrypted on the wire) and the single-use image captcha. A plain form with
 * antd's inputs rather than antd's Form: the login page is the first screen and does without it.
 */
export function PasswordLoginForm({ mayLogin, onLoggedIn }: { mayLogin: () => boolean; onLoggedIn: (result: LoginResult) => Promise<void> }) {
  const { captcha, refresh } = useCaptcha();
  const [values, setValues] = useState<Fields>({ username: '', password: '', captchaCode: '' });
  const [errors, setErrors] = useState<Partial<Record<FieldName, string | null>>>({});
  const [submitting, setSubmitting] = useState(false);
  /** `captchaId/code` the server already said is right: a second blur does not ask again. */
  const confirmed = useRef<string | null>(null);
  /**
   * The check in flight: the login waits for it (clicking 登录 blurs the field first). Sent together,
   * the check's use-and-re-arm of the captcha could make the login find it used.
   */
  const checking = useRef<Promise<boolean | null> | null>(null);

  const set = (name: FieldName, value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    // A message shown goes as soon as the field is right.
    if (errors[name]) setErrors((e) => ({ ...e, [name]: fieldError(name, value) }));
  };
  const check = (name: FieldName) => setErrors((e) => ({ ...e, [name]: fieldError(name, values[name]) }));
  const inputProps = (name: FieldName, id: string) => ({
    id,
    name,
    value: values[name],
    onChange: (e: { target: { value: string } }) => set(name, e.target.value),
    status: errors[name] ? ('error' as const) : undefined,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-error` : undefined,
    size: 'large' as const,
  });

  /**
   * On blur, after the required check: captcha/validate tells early whether the answer is right. A
   * wrong one is used up on the server, so the field is emptied and a new image fetched; the login
   * checks the answer again whatever this said.
   */
  async function checkCaptcha() {
    check('captchaCode');
    const code = values.captchaCode.trim();
    if (!captcha || code === '' || confirmed.current === `${captcha.captchaId}/${code}`) return;
    const asked = validateCaptcha(captcha.captchaId, code);
    checking.current = asked;
    const right = await asked;
    if (checking.current === asked) checking.current = null;
    if (right === true) confirmed.current = `${captcha.captchaId}/${code}`;
    if (right !== false) return;
    setValues((v) => (v.captchaCode.trim() === code ? { ...v, captchaCode: '' } : v));
    setErrors((e) => ({ ...e, captchaCode: CAPTCHA_WRONG }));
    refresh();
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    // Pressing 登录 blurs the captcha first, and its check may answer before the press ends (a press
    // lasts ~100 ms, a check on an intranet far less): a field the check just emptied keeps saying
    // the answer was wrong, not 请输入验证码 as if nothing had been typed.
    const captchaWrong = values.captchaCode.trim() === '' && errors.captchaCode === CAPTCHA_WRONG;
    const found = {
      username: fieldError('username', values.username),
      password: fieldError('password', values.password),
      captchaCode: captchaWrong ? CAPTCHA_WRONG : fieldError('captchaCode', values.captchaCode),
    };
    setErrors(found);
    // Every reason at once: the unticked agreement is said beside the fields' messages, not only
    // after they are right (which hid it whenever the check above had emptied the field).
    const agreed = mayLogin();
    if (Object.values(found).some(Boolean) || !captcha || !agreed) return;
    // A wrong answer found on blur has already emptied the field and shown why.
    if ((await checking.current) === false) return;
    setSubmitting(true);
    try {
      await onLoggedIn(await login({ ...values, captchaId: captcha.captchaId }));
    } catch {
      // The API client already showed the reason; the captcha is single-use, so take a new one.
      setValues((v) => ({ ...v, captchaCode: '' }));
      refresh();
      setSubmitting(false);
    }
  }

  return (
    <form onSubmit={(e) => void onSubmit(e)} autoComplete="off" name="login" noValidate>
      <Field id="login-username" label="账号" error={errors.username ?? null}>
        <Input {...inputProps('username', 'login-username')} data-testid="login-username" prefix={<UserOutlined />} placeholder="请输入账号" autoComplete="username" />
      </Field>
      <Field id="login-password" label="密码" error={errors.password ?? null}>
        <Input.Password {...inputProps('password', 'login-password')} data-testid="login-password" prefix={<LockOutlined />} placeholder="请输入密码" maxLength={PASSWORD_MAX_LENGTH} autoComplete="current-password" />
      </Field>
      <Field id="login-captcha" label="验证码" error={errors.captchaCode ?? null}>
        <div style={{ display: 'flex', gap: 8 }}>
          <Input {...inputProps('captchaCode', 'login-captcha')} onBlur={() => void checkCaptcha()} data-testid="login-captcha" prefix={<SafetyOutlined />} placeholder="请输入验证码" autoComplete="off" />
          <CaptchaImageButton captcha={captcha} refresh={refresh} testId="login-captcha" height={40} />
        </div>
      </Field>
      <Button type="primary" htmlType="submit" block size="large" loading={submitting} disabled={!captcha} data-testid="login-submit">
        登录
      </Button>
    </form>
  );
}
