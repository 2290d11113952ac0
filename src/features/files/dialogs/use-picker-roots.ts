import { useMemo } from 'react';
import { FILE_CATEGORY } from '../../../../common/api/types';
import type { BrowserSource } from '../listing/browser-source';
import type { PickerRoot } from './FolderPickerModal';
import { useGroups, usePublicSpace } from '../space-queries';
import { useModuleSwitch } from '../../../lib/data/static-data';

const PERSONAL: PickerRoot = { key: 'cat-1', title: '个人文件', scope: { category: FILE_CATEGORY.personal, spaceId: null }, rootFolderId: null };

/**
 * The top-level places the move/copy picker offers, loaded (through the data layer) when it opens:
 * the page's own tree first, then 个人文件, the public space and the caller's group spaces — each only
 * while its module is on for the tenant (module switch `file-public`, `group`).
 */
export function usePickerRoots(source: BrowserSource, open: boolean): PickerRoot[] {
  const moduleOn = useModuleSwitch();
  const pub = usePublicSpace(open && moduleOn('file-public')).data;
  const groups = useGroups(open && moduleOn('group')).data;
  const publicOn = moduleOn('file-public');
  const groupsOn = moduleOn('group');
  const own: PickerRoot | null =
    source.mode === 'folder'
      ? { key: source.space ? `space-${source.space.id}` : `cat-${source.scope.category}`, title: source.rootName, scope: source.scope, rootFolderId: source.space?.rootId ?? null }
      : null;
  const ownKey = own ? JSON.stringify(own) : '';

  return useMemo(() => {
    if (!open) return [];
    const first: PickerRoot[] = own ? [own] : [];
    if (!first.some((r) => r.key === PERSONAL.key)) first.push(PERSONAL);
    const spaces = [...(pub && publicOn ? [pub] : []), ...(groupsOn ? (groups ?? []) : [])].map(
      (s): PickerRoot => ({ key: `space-${s.id}`, title: s.kind === 'public' ? '公共空间' : s.name, scope: { category: FILE_CATEGORY.personal, spaceId: s.id }, rootFolderId: s.rootId }),
    );
    return [...first, ...spaces.filter((s) => !first.some((r) => r.key === s.key))];
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `own` is compared by value (ownKey)
  }, [open, ownKey, pub, groups, publicOn, groupsOn]);
}
