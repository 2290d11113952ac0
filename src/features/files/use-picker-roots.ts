import { useEffect, useState } from 'react';
import { FILE_CATEGORY } from '../../../common/api/types';
import type { BrowserSource } from './browser-source';
import { listGroups, publicSpace } from './files-api';
import type { PickerRoot } from './FolderPickerModal';

const PERSONAL: PickerRoot = { key: 'cat-1', title: '个人文件', scope: { category: FILE_CATEGORY.personal, spaceId: null }, rootFolderId: null };

/**
 * The top-level places the move/copy picker offers, loaded when it opens: the page's own tree first,
 * then 个人文件, the public space and the caller's group spaces.
 */
export function usePickerRoots(source: BrowserSource, open: boolean): PickerRoot[] {
  const [roots, setRoots] = useState<PickerRoot[]>([]);
  const own: PickerRoot | null =
    source.mode === 'folder'
      ? { key: source.space ? `space-${source.space.id}` : `cat-${source.scope.category}`, title: source.rootName, scope: source.scope, rootFolderId: source.space?.rootId ?? null }
      : null;
  const ownKey = own ? JSON.stringify(own) : '';

  useEffect(() => {
    if (!open) return;
    let alive = true;
    const first: PickerRoot[] = own ? [own] : [];
    if (!first.some((r) => r.key === PERSONAL.key)) first.push(PERSONAL);
    setRoots(first);
    Promise.all([publicSpace().catch(() => null), listGroups().catch(() => [])]).then(([pub, groups]) => {
      if (!alive) return;
      const spaces = [...(pub ? [pub] : []), ...groups].map(
        (s): PickerRoot => ({ key: `space-${s.id}`, title: s.kind === 'public' ? '公共空间' : s.name, scope: { category: FILE_CATEGORY.personal, spaceId: s.id }, rootFolderId: s.rootId }),
      );
      setRoots([...first, ...spaces.filter((s) => !first.some((r) => r.key === s.key))]);
    });
    return () => {
      alive = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `own` is compared by value (ownKey)
  }, [open, ownKey]);

  return roots;
}
