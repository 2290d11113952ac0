import { TreeSelect } from 'antd';
import { useMemo, type CSSProperties } from 'react';
import type { DepartmentIndex } from '../../common/org/tree';
import { useOrgTree } from '../lib/data/org';

interface TreeOption {
  value: string;
  title: string;
  children?: TreeOption[];
}

/** The organisation tree as TreeSelect options, each department under its parent. */
export function departmentTreeOptions(index: DepartmentIndex, parent = ''): TreeOption[] {
  return (index.children.get(parent) ?? []).map((d) => {
    const children = departmentTreeOptions(index, d.id);
    return children.length > 0 ? { value: d.id, title: d.name, children } : { value: d.id, title: d.name };
  });
}

export interface DepartmentSelectProps {
  value?: string;
  onChange?: (id: string | undefined) => void;
  placeholder: string;
  style?: CSSProperties;
  'data-testid'?: string;
}

/**
 * One department picked from the organisation tree (searchable by name, clearable), as the filters
 * of the admin pages ask for it; what the choice covers (the subtree, usually) is for the page to say
 * in its placeholder.
 */
export function DepartmentSelect({ value, onChange, placeholder, style, 'data-testid': testId }: DepartmentSelectProps) {
  const tree = useOrgTree();
  const options = useMemo(() => (tree.index ? departmentTreeOptions(tree.index) : []), [tree.index]);
  return (
    <TreeSelect
      allowClear
      showSearch
      treeNodeFilterProp="title"
      value={value}
      onChange={(v: string | undefined) => onChange?.(v ?? undefined)}
      treeData={options}
      placeholder={placeholder}
      loading={tree.isPending}
      style={style}
      popupMatchSelectWidth={false}
      data-testid={testId}
    />
  );
}
