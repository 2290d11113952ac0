import { ExclamationCircleOutlined, ExportOutlined, LeftOutlined, RightOutlined, StopOutlined, SwapOutlined } from '@ant-design/icons';
import { Alert, Badge, Button, Collapse, Empty, Progress, Space, Tag, Typography } from 'antd';
import './transfer-panel.css';
import { useAtomValue } from 'jotai';
import { memo, useCallback, useMemo, useState } from 'react';
import { formatSize } from '../../../common/format/size';
import type { TransferItemView } from '../../../common/transfer/engine-api';
import { AfterCommits } from '../../components/AfterCommits';
import { saveBlob } from '../../lib/save-blob';
import { developerMode } from '../../lib/developer-mode';
import { PHONE_FLOAT_HEIGHT_PX, usePhone } from '../../lib/use-phone';
import { isBoolean, useStoredState } from '../../lib/use-stored-state';
import { useTransfersOpenRequest } from '../../lib/transfer-open';
import type { TabRole } from './engine-client';
import { getEngine } from './engine-client';
import { formatEta, HOLD_REASON_LABELS, needsRename } from './state-labels';
import { isBlocked, isFailed, isFinished, isUnderWay, overall, overallPercent, overallStatus } from './transfer-totals';
import { RenameItemDialog } from './RenameItemDialog';
import { transferRowHeight, TransferItemRow, type TransferRowActions } from './TransferItemRow';
import { tabRoleAtom, transferSnapshotAtom } from './transfer-atoms';
import { useTransferEngine } from './use-transfer-engine';
import { useOnline } from './use-online';
import { VirtualList } from './VirtualList';
import { useFeedback } from '../../lib/feedback/feedback';

/** The spec §3 uploader tip, shown by default. */
export const UPLOADER_TIP = '禁止上传或分享涉密文件，以及法律法规规定不得公开的信息。';
export const OFFLINE_TIP = '网络已断开，恢复后将自动继续上传';

function downloadQueueJson(data: unknown): void {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  saveBlob(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }), `transfer-queue-${stamp}.json`);
}

/**
 * The uploads (downloads are the browser's own and show in its download list, not here). Only the overall
 * bar and figures move with progress; the bulk buttons render when what they offer changes.
 */
function TransferList({ items, actions }: { items: TransferItemView[]; actions: TransferRowActions }) {
  const sum = overall(items);
  const percent = overallPercent(items, sum);
  return (
    <div style={{ display: 'flex', flexDirection: 'column', minHeight: 0, flex: 1 }} data-testid="transfer-list-upload">
      <div data-testid="transfer-overall-upload" style={{ marginBottom: 4 }}>
        <Progress percent={percent} size="small" status={overallStatus(items, sum)} aria-label="全部传输的总进度" />
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {formatSize(sum.done)}/{formatSize(sum.total)}
          {sum.speed > 0 ? ` · ${formatSize(sum.speed)}/s · 剩余 ${formatEta(sum.eta)}` : ''}
        </Typography.Text>
        {sum.failed > 0 && (
          <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid="transfer-failed-count">
            {' · '}
            {sum.failed} 项失败
          </Typography.Text>
        )}
      </div>
      <BulkButtons
        unfinished={items.filter((i) => !isFinished(i)).length}
        failed={items.filter(isFailed).length}
        retryable={items.some((i) => isFailed(i) && !needsRename(i))}
      />
      {items.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无上传任务" />
      ) : (
        <VirtualList items={items} rowHeight={transferRowHeight} getKey={(i) => i.id} renderRow={(item) => <TransferItemRow item={item} actions={actions} />} testId="transfer-scroll-upload" />
      )}
    </div>
  );
}

/** 全部暂停 / 继续 / 重试 / 取消, 清除失败: they change with the counts, not with each progress snapshot. */
const BulkButtons = memo(function BulkButtons({ unfinished, failed, retryable }: { unfinished: number; failed: number; retryable: boolean }) {
  const engine = getEngine();
  const { message, modal } = useFeedback();
  const bulk = (run: () => Promise<void>, what: string) => () => {
    run().catch((e: unknown) => message.error(`${what}失败：${e instanceof Error ? e.message : String(e)}`));
  };
  return (
    <Space size={4} wrap style={{ marginBottom: 6 }}>
      <Button size="small" onClick={bulk(() => engine.pauseAll(), '全部暂停')} disabled={unfinished === 0} data-testid="transfer-pause-all">
        全部暂停
      </Button>
      <Button size="small" onClick={bulk(() => engine.resumeAll(), '全部继续')} disabled={unfinished === 0} data-testid="transfer-resume-all">
        全部继续
      </Button>
      <Button size="small" onClick={bulk(() => engine.retryAll(), '全部重试')} disabled={!retryable} data-testid="transfer-retry-all">
        全部重试
      </Button>
      <Button size="small" danger onClick={bulk(() => engine.cancelAll(), '全部取消')} disabled={unfinished === 0} data-testid="transfer-cancel-all">
        全部取消
      </Button>
      {/* As the big drives do: 清除已完成 keeps failed uploads (to retry or rename); these go only when asked. */}
      <Button
        size="small"
        onClick={() =>
          modal.confirm({
            title: `清除 ${failed} 项失败的上传？`,
            content: '清除后它们不再重试；如仍需要，请重新选择文件上传。',
            okText: '清除',
            cancelText: '取消',
            onOk: bulk(() => engine.clearFailed(), '清除失败项'),
          })
        }
        disabled={failed === 0}
        data-testid="transfer-clear-failed"
      >
        清除失败{failed > 0 ? `（${failed}）` : ''}
      </Button>
    </Space>
  );
});

/** '已拦截': files whose type the tenant blocks; they are never uploaded. */
function BlockedList({ items }: { items: TransferItemView[] }) {
  if (items.length === 0) return null;
  return (
    <Collapse
      size="small"
      style={{ marginBottom: 6 }}
      data-testid="transfer-blocked"
      items={[
        {
          key: 'blocked',
          label: (
            <span>
              <StopOutlined style={{ color: '#ff4d4f', marginInlineEnd: 6 }} />
              已拦截（{items.length}）
            </span>
          ),
          children: (
            <div style={{ maxHeight: 160, overflowY: 'auto' }}>
              {items.slice(0, 500).map((item) => (
                <div key={item.id} data-testid="transfer-blocked-item" style={{ fontSize: 12, padding: '2px 0' }}>
                  <Typography.Text ellipsis style={{ maxWidth: '100%' }} title={item.relativePath ?? item.name}>
                    {item.relativePath ?? item.name}
                  </Typography.Text>
                  <div style={{ color: 'rgba(0,0,0,0.45)' }}>{item.lastError ?? HOLD_REASON_LABELS.blockedType}</div>
                </div>
              ))}
              {items.length > 500 && <Typography.Text type="secondary">另有 {items.length - 500} 个文件被拦截</Typography.Text>}
            </div>
          ),
        },
      ]}
    />
  );
}

/** Where this browser remembers whether the transfer panel is open (closed until a transfer starts). */
export const PANEL_OPEN_KEY = 'transferPanelOpen';
const PANEL_WIDTH = 380;
const RAIL_WIDTH = 48;

/**
 * '传输列表': the engine's uploads, with their progress and controls. Owns the engine connection.
 *
 * On a wide screen a side sheet beside the page: closed (a narrow rail showing how many transfers
 * run and how far they are) until the user opens it or a transfer starts, and remembered on this
 * browser either way, so the page keeps its width (the user list's and search results' 操作 column)
 * when nothing is moving. On a phone it is the bottom sheet's content, always open.
 */
export function TransferPanel() {
  const phone = usePhone();
  const [openByUser, setOpen] = useStoredState(PANEL_OPEN_KEY, false, isBoolean);
  const expanded = phone || openByUser;
  // A link that asks for the list (a held upload's message) opens it; on a phone the shell's sheet does.
  useTransfersOpenRequest(!phone, useCallback(() => setOpen(true), [setOpen]));
  return (
    <aside
      className="transfer-panel"
      data-testid="transfer-panel"
      data-expanded={expanded}
      aria-label="传输列表"
      style={{
        width: phone ? '100%' : expanded ? PANEL_WIDTH : RAIL_WIDTH,
        flex: phone ? 1 : 'none',
        background: '#fff',
        borderInlineStart: phone ? undefined : '1px solid #f0f0f0',
        display: 'flex',
        flexDirection: 'column',
        minHeight: 0,
      }}
    >
      {/* It opens and closes at once, without a width transition: a transition would lay out the whole
          page, file table and all, on each of its frames. */}
      {/* The panel's width is there from the shell's first commit, so the page does not move; what
          it shows, and the engine's connection, come in the commit after (see AfterCommits). */}
      <AfterCommits>
        <TransferPanelContent phone={phone} expanded={expanded} setOpen={setOpen} />
      </AfterCommits>
    </aside>
  );
}

/** The rail or the open panel's header and lists; owns the engine connection. */
function TransferPanelContent({ phone, expanded, setOpen }: { phone: boolean; expanded: boolean; setOpen: (open: boolean) => void }) {
  const snapshot = useAtomValue(transferSnapshotAtom);
  const role = useAtomValue(tabRoleAtom);
  const online = useOnline();
  const { message } = useFeedback();
  const expand = useCallback(() => setOpen(true), [setOpen]);
  useTransferEngine(expand);
  const [renaming, setRenaming] = useState<TransferItemView | null>(null);

  const actions = useMemo<TransferRowActions>(() => {
    const engine = getEngine();
    const fail = (what: string) => (e: unknown) => message.error(`${what}失败：${e instanceof Error ? e.message : String(e)}`);
    return {
      onCommand: (command, id) => void engine[command](id).catch(fail('操作')),
      onDecide: (id, decision) => void engine.decide(id, decision).catch(fail('操作')),
      onReattach: (id, file) =>
        void engine.reattach(id, file).then((ok) => {
          if (!ok) message.error('所选文件与原文件不一致');
        }, fail('重新选择文件')),
      onRename: setRenaming,
      onRemove: (id) => void engine.remove(id).catch(fail('移除')),
    };
  }, [message]);

  const { uploads, blocked, running } = useMemo(() => {
    const sorted = [...snapshot.items].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
    const lists = { uploads: [] as TransferItemView[], blocked: [] as TransferItemView[], running: 0 };
    for (const item of sorted) {
      if (isUnderWay(item)) lists.running++;
      if (isBlocked(item)) lists.blocked.push(item);
      else lists.uploads.push(item);
    }
    return lists;
  }, [snapshot]);
  const finished = snapshot.items.filter(isFinished).length;
  const roleText = role === null ? '正在连接传输服务…' : role === 'leader' ? '本标签页正在传输' : '由其他标签页传输';
  const renameItem = useCallback((id: string, name: string) => getEngine().rename(id, name), []);
  const closeRename = useCallback(() => setRenaming(null), []);

  return (
    <>
      {!expanded && <TransferRail running={running} items={uploads} roleText={roleText} role={role} onOpen={expand} />}
      <RenameItemDialog item={renaming} onRename={renameItem} onClose={closeRename} />
      {expanded && <PanelTitle phone={phone} running={running} finished={finished} setOpen={setOpen} />}
      {expanded && (
        <div className="transfer-panel-body" style={{ padding: '8px 12px', flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}>
          <PanelNotes role={role} roleText={roleText} online={online} count={uploads.length} />
          <BlockedList items={blocked} />
          <TransferList items={uploads} actions={actions} />
        </div>
      )}
    </>
  );
}

/** The open panel's title bar (it changes with the counts, not with each progress snapshot). */
const PanelTitle = memo(function PanelTitle({ phone, running, finished, setOpen }: { phone: boolean; running: number; finished: number; setOpen: (open: boolean) => void }) {
  const { message } = useFeedback();
  // Testers' tool (npm run replay plays the file back): only behind the developer switch.
  const [devTools] = useState(developerMode);
  const exportQueue = (): void => {
    getEngine()
      .exportQueue()
      .then(downloadQueueJson, (e: unknown) => message.error(`导出失败：${e instanceof Error ? e.message : String(e)}`));
  };
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 8, padding: '12px', borderBottom: '1px solid #f0f0f0' }}>
      {!phone && (
        <Button type="text" size="small" icon={<RightOutlined />} onClick={() => setOpen(false)} aria-label="收起传输列表" aria-expanded title="收起传输列表" data-testid="transfer-toggle" />
      )}
      <SwapOutlined />
      <Typography.Text strong style={{ flex: 1 }}>
        传输列表{running > 0 ? `（${running}）` : ''}
      </Typography.Text>
      <Button size="small" type="link" onClick={() => void getEngine().clearFinished()} disabled={finished === 0} data-testid="transfer-clear-finished">
        清除已完成{finished > 0 ? `（${finished}）` : ''}
      </Button>
      {devTools && (
        <Button size="small" type="text" icon={<ExportOutlined />} onClick={exportQueue} title="导出传输队列（开发者工具）" aria-label="导出队列" data-testid="transfer-export">
          导出队列
        </Button>
      )}
    </div>
  );
});

/** Which tab transfers, the uploader tip, the offline note and the list's heading. */
const PanelNotes = memo(function PanelNotes({ role, roleText, online, count }: { role: TabRole | null; roleText: string; online: boolean; count: number }) {
  return (
    <>
      <div style={{ marginBottom: 6 }}>
        <Tag color={role === 'leader' ? 'blue' : 'default'} data-testid="transfer-role" data-role={role ?? ''}>
          {roleText}
        </Tag>
      </div>
      <Alert type="warning" showIcon title={UPLOADER_TIP} style={{ marginBottom: 8 }} data-testid="uploader-tip" />
      {!online && <Alert type="error" showIcon title={OFFLINE_TIP} style={{ marginBottom: 8 }} data-testid="transfer-offline" />}
      <Typography.Text strong style={{ marginBottom: 4 }} data-testid="transfer-heading-upload">
        上传（{count}）
      </Typography.Text>
    </>
  );
});

/**
 * The closed panel: a rail with the open button, the number of transfers under way and their overall
 * progress, and whether this tab runs them. A click anywhere on it opens the panel.
 */
function TransferRail({ running, items, role, roleText, onOpen }: { running: number; items: TransferItemView[]; role: TabRole | null; roleText: string; onOpen: () => void }) {
  const active = items.filter(isUnderWay);
  const sum = overall(active);
  const percent = overallPercent(active, sum);
  const failed = items.filter(isFailed).length;
  return (
    <div className="transfer-panel-body" style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 12, padding: '12px 0', cursor: 'pointer', flex: 1 }} onClick={onOpen}>
      <Button
        type="text"
        size="small"
        icon={<LeftOutlined />}
        onClick={(e) => {
          e.stopPropagation();
          onOpen();
        }}
        aria-label="展开传输列表"
        aria-expanded={false}
        title="展开传输列表"
        data-testid="transfer-toggle"
      />
      <Badge count={running} size="small" title={`${running} 项传输中`}>
        <SwapOutlined style={{ fontSize: 18, color: running > 0 ? '#0958d9' : 'rgba(0,0,0,0.65)' }} aria-hidden />
      </Badge>
      {running > 0 && <Progress type="circle" percent={percent} size={32} aria-label="全部传输的总进度" data-testid="transfer-rail-progress" />}
      {failed > 0 && (
        <span role="img" aria-label={`${failed} 项上传失败`} title={`${failed} 项上传失败，打开传输列表处理`} data-testid="transfer-rail-failed" style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', color: '#cf1322', fontSize: 12 }}>
          <ExclamationCircleOutlined style={{ fontSize: 16 }} aria-hidden />
          {failed}
        </span>
      )}
      <span
        role="img"
        aria-label={roleText}
        title={roleText}
        data-testid="transfer-role"
        data-role={role ?? ''}
        style={{ width: 8, height: 8, borderRadius: 4, background: role === 'leader' ? '#1677ff' : role === 'follower' ? '#8c8c8c' : '#d9d9d9' }}
      />
      <span style={{ writingMode: 'vertical-rl', letterSpacing: 2, color: 'rgba(0,0,0,0.65)', fontSize: 13, userSelect: 'none' }}>传输列表</span>
    </div>
  );
}

/**
 * The phone's way into the transfer list (a floating button over the page): the number of transfers
 * under way and their overall progress, so a glance says how far the uploads are.
 */
export function TransferBadgeButton() {
  const snapshot = useAtomValue(transferSnapshotAtom);
  const active = snapshot.items.filter(isUnderWay);
  const failed = snapshot.items.filter(isFailed).length;
  const sum = overall(active);
  const percent = overallPercent(active, sum);
  // Nothing under way but something failed: say so (red) instead of a percentage that will not move.
  const label = active.length > 0 ? `传输 ${percent}%` : failed > 0 ? `${failed} 项失败` : '传输列表';
  return (
    <Badge count={active.length} size="small">
      <Button shape="round" type="primary" danger={active.length === 0 && failed > 0} icon={<SwapOutlined />} style={{ height: PHONE_FLOAT_HEIGHT_PX, paddingInline: 16, boxShadow: '0 4px 12px rgba(0,0,0,.2)' }} data-testid="transfer-sheet-button" aria-label="打开传输列表">
        {label}
      </Button>
    </Badge>
  );
}
