import { Descriptions, Drawer, Tag, Typography } from 'antd';
import { actionLabel } from '../../../common/api/action-codes';
import type { ActionLogEntry } from '../../../common/api/action-log';
import { departmentPath } from '../../../common/org/tree';
import { useOrgTree } from '../../lib/data/org';
import { detailRows } from './detail-labels';
import { clientText, objectTargets, operatorText, roleName, targetText, targetTypeLabel } from './labels';

const pad = (n: number) => String(n).padStart(2, '0');
function fullTime(at: number): string {
  const d = new Date(at);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** Everything one record holds, its place in the chain included. */
export function ActionLogDetail({ entry, onClose }: { entry: ActionLogEntry | null; onClose: () => void }) {
  const tree = useOrgTree();
  const department = entry?.actor.departmentId ? (tree.index && departmentPath(tree.index, entry.actor.departmentId)) || entry.actor.departmentId : '-';
  // An id in the detail is shown by name when the record's objects or the departments name it.
  const nameOf = (id: string): string | null => entry?.targets.find((t) => t.id === id && t.name.trim())?.name ?? ((tree.index && departmentPath(tree.index, id)) || null);
  return (
    <Drawer open={entry !== null} onClose={onClose} title="操作详情" size="large" destroyOnHidden>
      {entry && (
        <Descriptions column={1} size="small" bordered data-testid="action-log-detail">
          <Descriptions.Item label="时间">{fullTime(entry.at)}</Descriptions.Item>
          <Descriptions.Item label="操作人">
            {operatorText(entry)} · {roleName(entry.actor.role)}
          </Descriptions.Item>
          <Descriptions.Item label="部门（操作时）">{department}</Descriptions.Item>
          <Descriptions.Item label="操作">
            <span title={entry.action}>{actionLabel(entry.action)}</span>
          </Descriptions.Item>
          <Descriptions.Item label="结果">
            {entry.outcome === 'ok' ? <Tag color="green">成功</Tag> : <Tag color="red">被拒绝</Tag>}
            {entry.errorCode && <Typography.Text code>{entry.errorCode}</Typography.Text>}
          </Descriptions.Item>
          <Descriptions.Item label="对象">
            {/* Each object once, by name (labels.ts); the recorded ids stay in the export and the tooltip. */}
            {entry.targets.length === 0
              ? '-'
              : objectTargets(entry.targets).map((t, i) => (
                  <div key={`${t.id}-${i}`} title={t.id ? `ID ${t.id}` : undefined}>
                    {targetTypeLabel(t)}：{targetText(t)}
                  </div>
                ))}
          </Descriptions.Item>
          <Descriptions.Item label="详情">
            {entry.detail && Object.keys(entry.detail).length > 0 ? (
              <dl className="action-log-detail-rows" data-testid="action-log-detail-rows">
                {detailRows(entry.detail, nameOf).map((row) => (
                  <div key={row.key} title={row.key} data-key={row.key}>
                    <dt>{row.label}</dt>
                    <dd>{row.value}</dd>
                  </div>
                ))}
              </dl>
            ) : (
              '-'
            )}
          </Descriptions.Item>
          <Descriptions.Item label="IP 地址">{entry.address || '-'}</Descriptions.Item>
          <Descriptions.Item label="客户端">{clientText(entry)}</Descriptions.Item>
          <Descriptions.Item label="浏览器（User-Agent）">
            <Typography.Text style={{ wordBreak: 'break-all' }}>{entry.userAgent || '-'}</Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label="序号 / 哈希">
            {entry.seq} · <Typography.Text code style={{ wordBreak: 'break-all' }}>{entry.hash}</Typography.Text>
          </Descriptions.Item>
        </Descriptions>
      )}
    </Drawer>
  );
}
