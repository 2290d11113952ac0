import { Form, Input, Modal, Radio } from 'antd';
import { useMemo, useState } from 'react';
import type { DepartmentNode } from '../../../common/api/types';
import { departmentNameProblem } from '../../../common/org/account';
import { indexDepartments, subtreeIds, type DepartmentIndex } from '../../../common/org/tree';
import { DepartmentTree } from '../../components/DepartmentTree';

/**
 * Name of a new or renamed department, checked on blur with the server's rule; Enter submits like
 * 确定. `parent` names where a new department goes (the path, e.g. 总部 / 研发部; null = top level).
 */
export function NameDialog(props: { open: boolean; title: string; parent?: string | null; initial?: string; onCancel: () => void; onOk: (name: string) => Promise<void> }) {
  const [name, setName] = useState(props.initial ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit() {
    if (busy) return;
    const problem = departmentNameProblem(name);
    setError(problem);
    if (problem) return;
    setBusy(true);
    try {
      await props.onOk(name.trim());
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal open={props.open} title={props.title} okText="确定" cancelText="取消" confirmLoading={busy} destroyOnHidden onCancel={props.onCancel} onOk={() => void submit()}>
      {props.parent !== undefined ? (
        <Form.Item label="上级部门" style={{ marginBottom: 12 }}>
          <span data-testid="dept-name-parent">{props.parent ?? '无（顶层部门）'}</span>
        </Form.Item>
      ) : null}
      <Form.Item validateStatus={error ? 'error' : undefined} help={error}>
        <Input
          autoFocus
          maxLength={64}
          value={name}
          onChange={(e) => setName(e.target.value)}
          onBlur={() => setError(departmentNameProblem(name))}
          onPressEnter={() => void submit()}
          placeholder="部门名称"
          aria-label="部门名称"
          data-testid="dept-name-input"
        />
      </Form.Item>
    </Modal>
  );
}

/**
 * Where to move a department: a parent that is neither the department, one of its descendants, nor
 * 未分配 (the server checks the same in its transaction), or the top level.
 */
export function MoveDialog(props: { node: DepartmentNode | null; index: DepartmentIndex; onCancel: () => void; onOk: (parentId: string | null) => Promise<void> }) {
  const [target, setTarget] = useState<string | null>(null);
  const [where, setWhere] = useState<'top' | 'under'>('under');
  const [busy, setBusy] = useState(false);
  const allowed = useMemo(() => {
    if (!props.node) return props.index;
    const excluded = subtreeIds(props.index, props.node.id);
    return indexDepartments([...props.index.byId.values()].filter((d) => !excluded.has(d.id) && !d.unassigned));
  }, [props.index, props.node]);
  return (
    <Modal
      open={props.node !== null}
      title={`移动“${props.node?.name ?? ''}”`}
      okText="移动"
      cancelText="取消"
      confirmLoading={busy}
      okButtonProps={{ disabled: where === 'under' && !target }}
      destroyOnHidden
      onCancel={props.onCancel}
      onOk={async () => {
        setBusy(true);
        try {
          await props.onOk(where === 'top' ? null : target);
        } finally {
          setBusy(false);
        }
      }}
    >
      <Radio.Group value={where} onChange={(e) => setWhere(e.target.value as 'top' | 'under')} style={{ marginBottom: 8 }}>
        <Radio value="under">移到所选部门下</Radio>
        <Radio value="top">移到顶层</Radio>
      </Radio.Group>
      {where === 'under' ? (
        <div style={{ height: 360, display: 'flex', flexDirection: 'column' }}>
          <DepartmentTree index={allowed} selectedId={target} onSelect={(d) => setTarget(d.id)} testId="dept-move-tree" />
        </div>
      ) : null}
    </Modal>
  );
}
