import { useQuery } from '@tanstack/react-query';
import { Card, Space, Switch, Typography } from 'antd';
import { DICT_GROUP } from '../../../common/api/dictionaries';
import { DICTIONARIES } from '../../../common/api/endpoints/dictionaries';
import { api } from '../../lib/api';
import { updateDictItem } from './system-config-api';

/** Under ['account', 'dict']: the page's change() asks it again after any switch. */
export const VALIDITY_GROUP_KEY = ['account', 'dict', 'group', DICT_GROUP.validity] as const;

/**
 * 分享有效期: the `validity` dictionary group as `GET /api/dict/queryByGroup` answers it — every entry,
 * on and off — each with its switch. Shares and links offer only the entries that are on (the static
 * data list `validity`).
 */
export function ValidityCard({ change, disabled }: { change: (run: () => Promise<unknown>, done: string) => Promise<void>; disabled: boolean }) {
  const group = useQuery({ queryKey: VALIDITY_GROUP_KEY, queryFn: ({ signal }) => api.call(DICTIONARIES.queryByGroup, { group: DICT_GROUP.validity }, { signal }) });
  const items = group.data ?? [];
  const last = items.filter((i) => i.enabled).length === 1;
  return (
    <Card title="分享有效期" loading={group.isPending} data-testid="config-validity">
      <Typography.Paragraph type="secondary">分享和外链的有效期只能选择已开启的项；已有分享不受影响。至少保留一项。</Typography.Paragraph>
      <Space wrap size={[24, 12]}>
        {items.map((v) => (
          <Space key={v.code}>
            <Switch
              checked={v.enabled}
              disabled={disabled || (last && v.enabled)}
              onChange={(on) => change(() => updateDictItem({ group: DICT_GROUP.validity, code: v.code, enabled: on }), `有效期 ${v.label} 已${on ? '开启' : '关闭'}`)}
              data-testid={`validity-${v.code}`}
            />
            <span>{v.label}</span>
          </Space>
        ))}
      </Space>
    </Card>
  );
}
