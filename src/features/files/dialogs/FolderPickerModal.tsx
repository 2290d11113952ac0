import { FolderAddOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Space, Tree, type TreeDataNode } from 'antd';
import { useEffect, useState, type Key } from 'react';
import { FileKindIcon } from '../../../components/FileKindIcon';
import { lazyWhenOpen } from '../../../components/lazy-when-open';
import { listDirs, makeFolder, type FolderScope } from '../files-api';

const NameModal = lazyWhenOpen(() => import('./NameModal').then((m) => m.NameModal), (p) => p.open);

/** A top-level place the picker offers (a category root or a space root). */
export interface PickerRoot {
  key: string;
  title: string;
  scope: FolderScope;
  /** The folder id that stands for this root in writes (a space's root folder), or null. */
  rootFolderId: string | null;
}

export interface PickedTarget {
  scope: FolderScope;
  /** null = the root of the scope. */
  parentId: string | null;
  /** Ids from the root to the target (for the folder-into-itself check). */
  path: string[];
  label: string;
}

interface Node extends TreeDataNode {
  key: string;
  root: PickerRoot;
  folderId: string | null;
  path: string[];
  label: string;
  children?: Node[];
}

/**
 * The folder-picker tree for move and copy: one level is loaded at a time (`/api/file/dir/list`)
 * as the user expands it. The folders being moved are shown but cannot be picked or opened, so a
 * folder can never be put into itself or its own sub-folders (the server refuses it too).
 * 新建文件夹 (issue 44) makes a folder inside the one picked and picks it, without leaving the dialog.
 */
export function FolderPickerModal({
  open,
  title,
  roots,
  excludedIds,
  onPick,
  onClose,
}: {
  open: boolean;
  title: string;
  roots: PickerRoot[];
  excludedIds: ReadonlySet<string>;
  onPick: (target: PickedTarget) => Promise<void>;
  onClose: () => void;
}) {
  const [tree, setTree] = useState<Node[]>([]);
  const [picked, setPicked] = useState<Node | null>(null);
  const [busy, setBusy] = useState(false);
  const [expanded, setExpanded] = useState<Key[]>([]);
  const [naming, setNaming] = useState(false);

  useEffect(() => {
    if (!open) return;
    setPicked(null);
    setExpanded([]);
    setTree(
      roots.map((root) => ({
        key: root.key,
        title: root.title,
        root,
        folderId: null,
        path: root.rootFolderId ? [root.rootFolderId] : [],
        label: root.title,
        icon: <FileKindIcon kind={root.scope.spaceId ? 'groupFolder' : 'folder'} size={16} />,
      })),
    );
  }, [open, roots]);

  async function loadChildren(node: Node, again = false): Promise<Node[]> {
    if (node.children && !again) return node.children;
    const { items } = await listDirs(node.root.scope, node.folderId);
    const children: Node[] = items.map((dir) => {
      const excluded = excludedIds.has(dir.id);
      return {
        key: `${node.root.key}/${dir.id}`,
        title: excluded ? `${dir.name}（正在移动的文件夹）` : dir.name,
        root: node.root,
        folderId: dir.id,
        path: [...node.path, dir.id],
        label: `${node.label} / ${dir.name}`,
        isLeaf: excluded || !dir.hasChildren,
        disabled: excluded,
        icon: <FileKindIcon kind="folder" size={16} />,
      };
    });
    setTree((prev) => replaceChildren(prev, node.key, children));
    return children;
  }

  /** 新建文件夹 inside the picked folder: created on the server, shown under it, and picked. */
  async function createFolder(name: string): Promise<void> {
    if (!picked) return;
    const parent = picked;
    const made = await makeFolder({ parentId: parent.folderId, category: parent.root.scope.category, spaceId: parent.root.scope.spaceId, name });
    const children = await loadChildren(parent, true);
    setExpanded((keys) => (keys.includes(parent.key) ? keys : [...keys, parent.key]));
    setPicked(children.find((c) => c.folderId === made.id) ?? parent);
  }

  async function ok() {
    if (!picked) return;
    setBusy(true);
    try {
      await onPick({ scope: picked.root.scope, parentId: picked.folderId, path: picked.path, label: picked.label });
      onClose();
    } catch {
      // shown by the API client; the dialog stays open
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open={open}
      title={title}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <div style={{ display: 'flex', justifyContent: 'space-between', gap: 8 }}>
          <Button icon={<FolderAddOutlined />} disabled={!picked} title={picked ? `在「${picked.label}」中新建文件夹` : '请先选择位置'} onClick={() => setNaming(true)} data-testid="folder-picker-mkdir">
            新建文件夹
          </Button>
          <Space>
            <Button onClick={onClose}>取消</Button>
            <Button type="primary" disabled={!picked} loading={busy} onClick={ok} data-testid="folder-picker-ok">
              确定
            </Button>
          </Space>
        </div>
      }
    >
      <div data-testid="folder-picker" style={{ maxHeight: 360, overflow: 'auto' }}>
        <Tree<Node>
          showIcon
          blockNode
          treeData={tree}
          expandedKeys={expanded}
          onExpand={(keys) => setExpanded(keys)}
          loadData={(node) => loadChildren(node as unknown as Node).then(() => undefined)}
          selectedKeys={picked ? [picked.key] : []}
          onSelect={(_keys, info) => setPicked(info.selected ? (info.node as unknown as Node) : null)}
          titleRender={(node) => <span data-testid="folder-picker-node" data-folder-id={node.folderId ?? ''}>{String(node.title)}</span>}
        />
      </div>
      {picked && <Alert style={{ marginTop: 12 }} type="info" showIcon message={`目标位置：${picked.label}`} />}
      <NameModal open={naming} title={picked ? `在「${picked.label}」中新建文件夹` : '新建文件夹'} initialName="" inputTestId="picker-mkdir-name-input" onClose={() => setNaming(false)} onSubmit={createFolder} />
    </Modal>
  );
}

function replaceChildren(nodes: Node[], key: string, children: Node[]): Node[] {
  return nodes.map((n) => (n.key === key ? { ...n, children, isLeaf: children.length === 0 } : n.children ? { ...n, children: replaceChildren(n.children, key, children) } : n));
}
