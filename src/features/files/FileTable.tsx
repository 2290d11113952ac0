import { App, Button, Space, Table, type TableColumnsType } from 'antd';
import { useRef } from 'react';
import { downloadUrl } from '../../../common/api/paths';
import type { FileEntry } from '../../../common/api/types';
import { formatDateTime } from '../../../common/format/date';
import { formatSize } from '../../../common/format/size';
import { FileKindIcon } from '../../components/FileKindIcon';
import { Permission, usePermission } from '../../lib/button-permissions';
import { enqueueDownload } from '../../lib/upload-queue';
import { useInfiniteScroll } from './use-infinite-scroll';
import type { FilePages } from './use-file-pages';

/**
 * Files larger than this download through the transfer engine (Range requests: pausable, resumable,
 * listed under '下载'); smaller ones are a plain link the browser downloads by itself.
 */
export const ENGINE_DOWNLOAD_THRESHOLD = 64 * 1024 * 1024;

export function FileTable({ pages, onOpenFolder, onRename }: { pages: FilePages; onOpenFolder: (id: string) => void; onRename: (file: FileEntry) => void }) {
  const container = useRef<HTMLDivElement>(null);
  const { message } = App.useApp();
  const canDownload = usePermission('file:download');

  const downloadThroughEngine = (file: FileEntry): void => {
    enqueueDownload({ fileId: file.id, name: file.name, size: file.size }).then(
      () => message.success('已加入下载列表'),
      (e: unknown) => message.error(e instanceof Error ? e.message : '无法开始下载'),
    );
  };
  useInfiniteScroll(container, pages.loadMore, pages.hasMore, pages.items.length);

  const columns: TableColumnsType<FileEntry> = [
    {
      title: '名称',
      dataIndex: 'name',
      key: 'name',
      ellipsis: true,
      render: (_: unknown, file) => (
        <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8, maxWidth: '100%' }}>
          <FileKindIcon kind={file.isDir ? 'folder' : file.kind} />
          {file.isDir ? (
            <a
              href="#"
              onClick={(e) => {
                e.preventDefault();
                onOpenFolder(file.id);
              }}
              title={file.name}
            >
              {file.name}
            </a>
          ) : (
            <span title={file.name}>{file.name}</span>
          )}
        </span>
      ),
    },
    { title: '大小', dataIndex: 'size', key: 'size', width: 120, render: (_: unknown, file) => (file.isDir ? '-' : formatSize(file.size)) },
    { title: '修改时间', dataIndex: 'updatedAt', key: 'updatedAt', width: 170, render: (_: unknown, file) => formatDateTime(file.updatedAt) },
    {
      title: '操作',
      key: 'actions',
      width: 160,
      render: (_: unknown, file) => (
        <Space size={4}>
          <Permission code="file:rename">
            <Button type="link" size="small" onClick={() => onRename(file)} data-testid={`rename-${file.id}`}>
              重命名
            </Button>
          </Permission>
          {!file.isDir &&
            canDownload &&
            (file.size > ENGINE_DOWNLOAD_THRESHOLD ? (
              <Button type="link" size="small" onClick={() => downloadThroughEngine(file)} data-testid={`download-${file.id}`} data-via="engine">
                下载
              </Button>
            ) : (
              <Button type="link" size="small" href={downloadUrl(file.id)} download={file.name} data-testid={`download-${file.id}`} data-via="link">
                下载
              </Button>
            ))}
        </Space>
      ),
    },
  ];

  return (
    <div ref={container} style={{ flex: 1, minHeight: 0 }}>
      <Table<FileEntry>
        data-testid="file-table"
        rowKey="id"
        columns={columns}
        dataSource={pages.items}
        loading={pages.loading && pages.items.length === 0}
        pagination={false}
        size="middle"
        scroll={{ y: 'calc(100vh - 260px)' }}
        locale={{ emptyText: pages.loading ? ' ' : '暂无文件' }}
        footer={pages.items.length > 0 ? () => (pages.loading ? '加载中…' : pages.hasMore ? '下拉加载更多' : `共 ${pages.items.length} 项`) : undefined}
      />
    </div>
  );
}
