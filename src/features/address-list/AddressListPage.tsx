import { Card, Flex, Input, Segmented, Space, Typography } from 'antd';
import { useState } from 'react';
import { PHONE_MASK_RULES } from '../../../common/org/phone-mask';
import { departmentPath, subtreeMembers } from '../../../common/org/tree';
import { DepartmentTree } from '../../components/DepartmentTree';
import { PeopleList } from '../../components/PeopleList';
import { useOrgTree, usePeople } from '../../lib/data/org';
import { usePhone } from '../../lib/use-phone';

/**
 * 通讯录 (/main/addressList): the organisation as members see it. The department tree (with the
 * number of people under each) on the left; the people of the chosen department, or of a search over
 * account, nickname and phone, on the right, with phones masked by the tenant's rule.
 */
export function AddressListPage() {
  const tree = useOrgTree();
  const [deptId, setDeptId] = useState<string | null>(null);
  const [treeKeyword, setTreeKeyword] = useState('');
  const [keyword, setKeyword] = useState('');
  const [scope, setScope] = useState<'sub' | 'direct'>('sub');
  const people = usePeople({ departmentId: deptId ?? undefined, direct: scope === 'direct', keyword });
  const index = tree.index;
  const rule = PHONE_MASK_RULES.find((r) => r.value === tree.data?.phoneMask);
  // Phones: the tree above the people, a third of the screen high.
  const phone = usePhone();

  return (
    <Flex gap={12} vertical={phone} style={{ flex: 1, minHeight: 0 }} data-testid="address-list">
      <Card size="small" title="组织架构" style={phone ? { height: '35vh', display: 'flex', flexDirection: 'column' } : { width: 320, display: 'flex', flexDirection: 'column' }} styles={{ body: { flex: 1, display: 'flex', flexDirection: 'column', gap: 8, minHeight: 0 } }}>
        <Input.Search allowClear placeholder="搜索部门" onChange={(e) => setTreeKeyword(e.target.value)} data-testid="address-dept-search" />
        <div
          role="button"
          tabIndex={0}
          onClick={() => setDeptId(null)}
          onKeyDown={(e) => e.key === 'Enter' && setDeptId(null)}
          style={{ padding: '4px 8px', cursor: 'pointer', borderRadius: 6, background: deptId === null ? '#e6f4ff' : undefined }}
          data-testid="address-all"
        >
          全部人员
        </div>
        {index ? (
          <DepartmentTree
            index={index}
            keyword={treeKeyword}
            selectedId={deptId}
            onSelect={(d) => setDeptId(d.id)}
            extra={(d) => <span style={{ color: '#999', fontSize: 12 }}>{subtreeMembers(index, d.id)}</span>}
            testId="address-tree"
          />
        ) : null}
      </Card>
      <Card
        size="small"
        style={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}
        styles={{ body: { flex: 1, display: 'flex', flexDirection: 'column', gap: 8, minHeight: 0 } }}
        title={deptId && index ? departmentPath(index, deptId) : '全部人员'}
        extra={rule ? <Typography.Text type="secondary">手机号显示规则：{rule.label}</Typography.Text> : null}
      >
        <Space wrap>
          <Input.Search allowClear placeholder="搜索账号、昵称或手机号" onSearch={setKeyword} style={{ width: phone ? '100%' : 300 }} data-testid="address-search" />
          {deptId ? (
            <Segmented
              value={scope}
              onChange={(v) => setScope(v as 'sub' | 'direct')}
              options={[
                { value: 'sub', label: '含下级部门' },
                { value: 'direct', label: '仅本部门' },
              ]}
            />
          ) : null}
        </Space>
        <PeopleList
          people={people.items}
          index={index}
          loading={people.isPending}
          onNearEnd={() => {
            if (people.hasNextPage && !people.isFetchingNextPage) void people.fetchNextPage();
          }}
          testId="address-people"
        />
      </Card>
    </Flex>
  );
}
