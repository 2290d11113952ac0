import { DownloadOutlined, EyeOutlined, FolderOutlined, SaveOutlined } from '@ant-design/icons';
import { Alert, Breadcrumb, Button, List, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { ERRORS } from '../../../common/api/errors';
import type { ApiCallError } from '../../../common/api/failure';
import type { LinkEntry, LinkVisit } from '../../../common/api/sharing';
import { formatDateTime } from '../../../common/format/date';
import { formatSize } from '../../../common/format/size';
import { FileKindIcon } from '../../components/FileKindIcon';
import { LinkVisitData, useLinkFolder } from '../../lib/data/link-folder';
import { downloadFromLink, saveFromLink } from '../../lib/data/link-visit';
import { startDownload } from '../../lib/save-blob';
import { LinkPreviewModal, linkPreviewMode } from './LinkPreviewModal';

/** Why every 下载 (and 保存, which takes one too) is off once the link has none left. */
export const DOWNLOADS_USED_UP = '剩余下载次数已用完';

export interface OpenedLinkProps {
  visit: LinkVisit;
  compact: boolean;
  inApp: boolean;
  /** A call refused because the visit is over (revoked, expired, new code). */
  onLost: (e: unknown) => void;
  onSaved: (n: number) => void;
  /** Downloads left changed (a download, or the server saying none are left). */
  onLeft: (left: number) => void;
}

/** The opened link: its file, or its folder tree, with preview, download and (signed in) save. */
export default function OpenedLinkView(props: OpenedLinkProps) {
  return (
    <LinkVisitData>
      <OpenedLink {...props} />
    </LinkVisitData>
  );
}

function OpenedLink({ visit, compact, inApp, onLost, onSaved, onLeft }: OpenedLinkProps) {
  const [folder, setFolder] = useState<string | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const [preview, setPreview] = useState<LinkEntry | null>(null);
  const left = visit.downloadsLeft;
  const root = visit.root;
  const { items, path, query } = useLinkFolder(visit.visit, folder);
  useEffect(() => {
    if (query.error) onLost(query.error);
  }, [query.error, onLost]);
  useEffect(() => setSelected([]), [folder]);

  async function download(ids: string[]): Promise<void> {
    try {
      const r = await downloadFromLink(visit.visit, ids);
      if (r.downloadsLeft !== null) onLeft(r.downloadsLeft);
      startDownload(r.url, { noReferrer: true });
    } catch (e) {
      // Others used what was left: DEP10213 (the client goes to /downloadExceeded, spec §8); a
      // return to this page then shows none left.
      if ((e as ApiCallError).failure?.kind === 'downloadExceeded') onLeft(0);
      else onLost(e);
    }
  }

  async function save(ids: string[]): Promise<void> {
    try {
      onSaved((await saveFromLink(visit.visit, ids, null)).saved);
    } catch (e) {
      if ((e as ApiCallError).failure?.kind === 'downloadExceeded') onLeft(0);
      else onLost(e);
    }
  }

  const canDownload = !visit.previewOnly;
  // None left: every button that would take one is off and says why; the server refuses anyway (DEP10213).
  const usedUp = left === 0;
  const off = usedUp ? { disabled: true, title: DOWNLOADS_USED_UP, 'aria-description': DOWNLOADS_USED_UP } : {};
  return (
    <div data-testid="link-opened">
      <Typography.Title level={4} style={{ marginTop: 0, overflowWrap: 'anywhere' }}>
        <FileKindIcon kind={root.isDir ? 'folder' : root.kind} /> {root.name}
      </Typography.Title>
      <div style={{ color: 'rgba(0,0,0,0.62)', marginBottom: 12 }} data-testid="link-meta">
        {visit.sharedBy.nickName} 分享 · {visit.expiresAt ? `${formatDateTime(visit.expiresAt)} 失效` : '永久有效'}
        {left !== null && ` · 剩余下载 ${left} 次`}
        {visit.previewOnly && ' · 仅允许预览'}
      </div>
      {visit.previewOnly && <Alert type="info" showIcon message="分享者只允许在线预览，预览内容带有水印。" style={{ marginBottom: 12 }} />}
      {canDownload && usedUp && (
        <Alert type="warning" showIcon message={`${DOWNLOADS_USED_UP}，不能再下载${visit.signedIn ? '或保存' : ''}。`} description="仍可在线预览。如需文件，请联系分享者。" style={{ marginBottom: 12 }} data-testid="link-downloads-used-up" />
      )}
      <Space wrap style={{ marginBottom: 12 }}>
        {canDownload && (
          <Button type="primary" icon={<DownloadOutlined />} onClick={() => void download(selected.length ? selected : [folder ?? root.id])} data-testid="link-download-main" {...off}>
            {selected.length ? `下载选中（${selected.length}）` : root.isDir ? '打包下载' : '下载'}
          </Button>
        )}
        {visit.signedIn && !visit.previewOnly && (
          <Button icon={<SaveOutlined />} onClick={() => void save(selected.length ? selected : [folder ?? root.id])} data-testid="link-save" {...off}>
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
              data-id={e.id}
              actions={[
                ...(previewable ? [<Button key="p" type="link" size="small" icon={<EyeOutlined />} onClick={() => setPreview(e)} data-testid="link-row-preview">预览</Button>] : []),
                // Nothing to see nor take here: say so, rather than a row without any action.
                ...(!previewable && !e.isDir && !canDownload
                  ? [<span key="n" style={{ color: 'rgba(0,0,0,0.45)' }} data-testid="link-row-no-preview">{ERRORS.PREVIEW_UNSUPPORTED.message}</span>]
                  : []),
                ...(canDownload ? [<Button key="d" type="link" size="small" icon={<DownloadOutlined />} onClick={() => void download([e.id])} data-testid="link-row-download" {...off}>下载</Button>] : []),
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
