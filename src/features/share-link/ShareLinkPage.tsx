import { DownloadOutlined, EyeOutlined, FolderOutlined, SaveOutlined } from '@ant-design/icons';
import { Alert, Breadcrumb, Button, Input, List, Space, Spin, Typography } from 'antd';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { ERRORS } from '../../../common/api/errors';
import type { LinkEntry, LinkVisit } from '../../../common/api/sharing';
import { LINK_CODE_LENGTH } from '../../../common/api/sharing';
import { formatDateTime } from '../../../common/format/date';
import { formatSize } from '../../../common/format/size';
import { BrandMark } from '../../components/BrandMark';
import { FileKindIcon } from '../../components/FileKindIcon';
import { downloadFromLink, openLink, saveFromLink, useLinkFolder } from '../../lib/data/sharing';
import { useFeedback } from '../../lib/feedback/feedback';
import { LinkPreviewModal, linkPreviewMode } from './LinkPreviewModal';

/** Codes whose answer the page shows itself (not as a toast). */
const LINK_CODES: readonly string[] = [ERRORS.LINK_INVALID.code, ERRORS.LINK_GONE.code, ERRORS.LINK_TOO_MANY_ATTEMPTS.code, ERRORS.LINK_VISIT_EXPIRED.code];

type State = { kind: 'loading' } | { kind: 'code'; error: string | null } | { kind: 'open'; visit: LinkVisit } | { kind: 'gone'; text: string };

/** The visit of this tab (a bearer key, 2 h): kept for the tab only, so a reload does not ask for the code again. */
const visitKey = (token: string) => `share-link-visit:${token}`;

function startDownload(url: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.rel = 'noreferrer';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/**
 * The visitor's page of a share link (/shareLink/<token>; /downLoadM/<token> on phones; /openShareLink
 * inside the app): the extraction code, then the shared file or folder tree with preview, download
 * (one file, or a ZIP of a selection or folder) and, for a visitor signed in to the tenant, save to
 * 个人文件. No login unless the tenant requires one (the server answers 401, the app goes to /login and
 * comes back). The page sends no referrer anywhere (its address holds the token).
 */
export function ShareLinkPage({ token, compact = false, inApp = false }: { token: string; compact?: boolean; inApp?: boolean }) {
  const { message } = useFeedback();
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'referrer';
    meta.content = 'no-referrer';
    document.head.appendChild(meta);
    return () => meta.remove();
  }, []);

  async function open(withCode?: string): Promise<void> {
    setBusy(true);
    try {
      const r = await openLink(token, withCode, { quietCodes: LINK_CODES });
      if (r.needCode) {
        setState({ kind: 'code', error: withCode ? ERRORS.LINK_INVALID.message : null });
        return;
      }
      sessionStorage.setItem(visitKey(token), JSON.stringify(r));
      setState({ kind: 'open', visit: r });
    } catch (e) {
      const codeOf = (e as { errorCode?: string }).errorCode ?? '';
      const text = (e as Error).message;
      if (codeOf === ERRORS.LINK_GONE.code) setState({ kind: 'gone', text });
      else if (LINK_CODES.includes(codeOf)) setState({ kind: 'code', error: text });
      else setState((s) => (s.kind === 'loading' ? { kind: 'code', error: null } : s));
    } finally {
      setBusy(false);
    }
  }

  useEffect(() => {
    const saved = sessionStorage.getItem(visitKey(token));
    if (saved) {
      try {
        setState({ kind: 'open', visit: JSON.parse(saved) as LinkVisit });
        return;
      } catch {
        sessionStorage.removeItem(visitKey(token));
      }
    }
    void open();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per token
  }, [token]);

  /** A visit the server no longer accepts (revoked, expired, new code): back to the start. */
  const lost = useCallback((e: unknown) => {
    const codeOf = (e as { errorCode?: string }).errorCode ?? '';
    if (codeOf === ERRORS.LINK_GONE.code || codeOf === ERRORS.LINK_VISIT_EXPIRED.code) {
      sessionStorage.removeItem(visitKey(token));
      if (codeOf === ERRORS.LINK_GONE.code) setState({ kind: 'gone', text: (e as Error).message });
      else void open();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `open` only reads the token
  }, [token]);

  const shell = (body: ReactNode) => (
    <div style={{ minHeight: '100vh', background: '#f5f6f8', display: 'flex', justifyContent: 'center', padding: compact ? 12 : 32 }} data-testid="share-link-page">
      <div style={{ width: '100%', maxWidth: compact ? 560 : 960, background: '#fff', borderRadius: 8, padding: compact ? 16 : 24, alignSelf: 'flex-start' }}>
        <BrandMark size={28} style={{ marginBottom: 16 }} />
        {body}
      </div>
    </div>
  );

  if (state.kind === 'loading') return shell(<Spin />);
  if (state.kind === 'gone') return shell(<Alert type="warning" showIcon message={state.text || '分享链接已失效'} description="该链接已被取消或已过期。" data-testid="link-gone" />);
  if (state.kind === 'code') {
    return shell(
      <div style={{ maxWidth: 360 }} data-testid="link-code-form">
        <Typography.Title level={4}>请输入提取码</Typography.Title>
        <Space.Compact style={{ width: '100%' }}>
          <Input
            value={code}
            maxLength={LINK_CODE_LENGTH}
            onChange={(e) => setCode(e.target.value.trim())}
            onPressEnter={() => code && void open(code)}
            placeholder={`${LINK_CODE_LENGTH}位提取码`}
            autoFocus
            data-testid="link-code-entry"
          />
          <Button type="primary" loading={busy} disabled={code.length !== LINK_CODE_LENGTH} onClick={() => void open(code)} data-testid="link-code-submit">
            提取文件
          </Button>
        </Space.Compact>
        {state.error && <Alert type="error" showIcon message={state.error} style={{ marginTop: 12 }} data-testid="link-code-error" />}
      </div>,
    );
  }
  return shell(<OpenedLink visit={state.visit} compact={compact} inApp={inApp} onLost={lost} onSaved={(n) => message.success(`已保存 ${n} 项到个人文件`)} />);
}

function OpenedLink({ visit, compact, inApp, onLost, onSaved }: { visit: LinkVisit; compact: boolean; inApp: boolean; onLost: (e: unknown) => void; onSaved: (n: number) => void }) {
  const [folder, setFolder] = useState<string | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const [preview, setPreview] = useState<LinkEntry | null>(null);
  const [left, setLeft] = useState(visit.downloadsLeft);
  const root = visit.root;
  const { items, path, query } = useLinkFolder(visit.visit, folder);
  useEffect(() => {
    if (query.error) onLost(query.error);
  }, [query.error, onLost]);
  useEffect(() => setSelected([]), [folder]);

  async function download(ids: string[]): Promise<void> {
    try {
      const r = await downloadFromLink(visit.visit, ids);
      setLeft(r.downloadsLeft);
      startDownload(r.url);
    } catch (e) {
      onLost(e);
    }
  }

  async function save(ids: string[]): Promise<void> {
    try {
      onSaved((await saveFromLink(visit.visit, ids, null)).saved);
    } catch (e) {
      onLost(e);
    }
  }

  // Shown even at 0 left: the server decides (another visitor may have used some), and past the
  // limit the answer is DEP10213, which takes the visitor to /downloadExceeded (spec §8).
  const canDownload = !visit.previewOnly;
  return (
    <div data-testid="link-opened">
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        <FileKindIcon kind={root.isDir ? 'folder' : root.kind} /> {root.name}
      </Typography.Title>
      <div style={{ color: 'rgba(0,0,0,0.55)', marginBottom: 12 }} data-testid="link-meta">
        {visit.sharedBy.nickName} 分享 · {visit.expiresAt ? `${formatDateTime(visit.expiresAt)} 失效` : '永久有效'}
        {left !== null && ` · 剩余下载 ${left} 次`}
        {visit.previewOnly && ' · 仅允许预览'}
      </div>
      {visit.previewOnly && <Alert type="info" showIcon message="分享者只允许在线预览，预览内容带有水印。" style={{ marginBottom: 12 }} />}
      <Space wrap style={{ marginBottom: 12 }}>
        {canDownload && (
          <Button type="primary" icon={<DownloadOutlined />} onClick={() => void download(selected.length ? selected : [folder ?? root.id])} data-testid="link-download-main">
            {selected.length ? `下载选中（${selected.length}）` : root.isDir ? '打包下载' : '下载'}
          </Button>
        )}
        {visit.signedIn && !visit.previewOnly && (
          <Button icon={<SaveOutlined />} onClick={() => void save(selected.length ? selected : [folder ?? root.id])} data-testid="link-save">
            保存到个人文件
          </Button>
        )}
        {inApp && <Button href="/main/file/personal">返回我的文件</Button>}
      </Space>
      {root.isDir && (
        <Breadcrumb
          style={{ marginBottom: 8 }}
          items={path.map((p, i) => ({
            title:
              i === path.length - 1 ? (
                p.name
              ) : (
                <a
                  href="#"
                  onClick={(e) => {
                    e.preventDefault();
                    setFolder(i === 0 ? null : p.id);
                  }}
                >
                  {p.name}
                </a>
              ),
          }))}
        />
      )}
      <List
        data-testid="link-list"
        loading={query.isPending}
        dataSource={items}
        locale={{ emptyText: '文件夹是空的' }}
        loadMore={
          query.hasNextPage ? (
            <div style={{ textAlign: 'center', margin: '12px 0' }}>
              <Button onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage} data-testid="link-more">
                加载更多（已显示 {items.length} 项）
              </Button>
            </div>
          ) : null
        }
        renderItem={(e) => {
          const previewable = linkPreviewMode(e, visit.previewOnly) !== null;
          const checked = selected.includes(e.id);
          return (
            <List.Item
              data-testid="link-row"
              data-name={e.name}
              actions={[
                ...(previewable ? [<Button key="p" type="link" size="small" icon={<EyeOutlined />} onClick={() => setPreview(e)} data-testid="link-row-preview">预览</Button>] : []),
                // Nothing to see nor take here: say so, rather than a row without any action.
                ...(!previewable && !e.isDir && !canDownload
                  ? [<span key="n" style={{ color: 'rgba(0,0,0,0.45)' }} data-testid="link-row-no-preview">{ERRORS.PREVIEW_UNSUPPORTED.message}</span>]
                  : []),
                ...(canDownload ? [<Button key="d" type="link" size="small" icon={<DownloadOutlined />} onClick={() => void download([e.id])} data-testid="link-row-download">下载</Button>] : []),
              ]}
            >
              <List.Item.Meta
                avatar={
                  root.isDir && !compact ? (
                    <input type="checkbox" aria-label={`选择 ${e.name}`} checked={checked} onChange={() => setSelected((s) => (checked ? s.filter((x) => x !== e.id) : [...s, e.id]))} />
                  ) : undefined
                }
                title={
                  e.isDir ? (
                    <a href="#" onClick={(ev) => (ev.preventDefault(), setFolder(e.id))}>
                      <FolderOutlined /> {e.name}
                    </a>
                  ) : (
                    <span>
                      <FileKindIcon kind={e.kind} /> {e.name}
                    </span>
                  )
                }
                description={e.isDir ? formatDateTime(e.updatedAt) : `${formatSize(e.size)} · ${formatDateTime(e.updatedAt)}`}
              />
            </List.Item>
          );
        }}
      />
      <LinkPreviewModal entry={preview} visit={visit.visit} previewOnly={visit.previewOnly} watermark={visit.watermark} onClose={() => setPreview(null)} />
    </div>
  );
}
