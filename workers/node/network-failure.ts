/**
 * What went wrong reaching a server, in words a person can act on: undici's `fetch failed` hides the
 * reason in `cause` (a system error code, a TLS error, a timeout). Used by the headless commands and
 * the sync engine's "cannot reach the server" message.
 */

const REASONS: Record<string, string> = {
  ECONNREFUSED: '连接被拒绝，服务器没有在这个地址和端口上运行',
  ECONNRESET: '连接被服务器或网络中断',
  ENOTFOUND: '找不到这个主机名（DNS）',
  EAI_AGAIN: '暂时无法解析主机名（DNS）',
  ETIMEDOUT: '连接超时',
  UND_ERR_CONNECT_TIMEOUT: '连接超时',
  UND_ERR_HEADERS_TIMEOUT: '等待服务器响应超时',
  UND_ERR_BODY_TIMEOUT: '等待服务器数据超时',
  UND_ERR_SOCKET: '连接被中断',
  EHOSTUNREACH: '无法到达主机（网络不通）',
  ENETUNREACH: '网络不可用',
  EPIPE: '连接被中断',
  CERT_HAS_EXPIRED: 'TLS 证书已过期',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS 证书是自签名的，不受信任',
  SELF_SIGNED_CERT_IN_CHAIN: 'TLS 证书链中有自签名证书，不受信任',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: '无法验证 TLS 证书',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS 证书与主机名不符',
  EPROTO: 'TLS 握手失败（协议错误，是否用 https 访问了 http 服务？）',
  ERR_SSL_WRONG_VERSION_NUMBER: 'TLS 握手失败（是否用 https 访问了 http 服务？）',
};

/** The innermost error of a chain of causes with a code, else the innermost one. */
function rootCause(error: unknown): { code: string | null; message: string } {
  let current: unknown = error;
  let found: { code: string | null; message: string } = { code: null, message: error instanceof Error ? error.message : String(error) };
  for (let depth = 0; current && depth < 8; depth++) {
    const e = current as { code?: unknown; message?: unknown; cause?: unknown; name?: unknown };
    if (typeof e.code === 'string') found = { code: e.code, message: typeof e.message === 'string' ? e.message : found.message };
    else if (e.name === 'TimeoutError' || e.name === 'AbortError') found = { code: 'ETIMEDOUT', message: String(e.message) };
    else if (typeof e.message === 'string' && found.code === null) found = { code: null, message: e.message };
    // AggregateError (happy eyeballs: one per address tried): the first says enough
    const errors = (current as { errors?: unknown[] }).errors;
    current = e.cause ?? (Array.isArray(errors) ? errors[0] : undefined);
  }
  return found;
}

/** e.g. "连接被拒绝，服务器没有在这个地址和端口上运行（ECONNREFUSED）". */
export function describeNetworkFailure(error: unknown): string {
  const { code, message } = rootCause(error);
  if (code === null) return message;
  return `${REASONS[code] ?? message}（${code}）`;
}

/** e.g. "无法连接服务器 http://127.0.0.1:9：连接被拒绝…（ECONNREFUSED）". */
export function unreachableMessage(url: string, error: unknown): string {
  let origin = url;
  try {
    origin = new URL(url).origin;
  } catch {
    // not a URL: shown as given
  }
  return `无法连接服务器 ${origin}：${describeNetworkFailure(error)}`;
}

/** Did the request fail before any answer came (no HTTP status)? */
export function isNetworkFailure(error: unknown): boolean {
  return error instanceof TypeError && /fetch failed/.test(error.message);
}
