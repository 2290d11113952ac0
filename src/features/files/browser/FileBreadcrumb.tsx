import { Breadcrumb } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { FileCatalogResponse } from '../../../../common/api/types';
import { fileCatalog } from '../files-api';

type Path = FileCatalogResponse['path'];

function useCatalog(dir: string | null) {
  // Through the data layer: a folder opened before shows its path offline too.
  return useQuery({ queryKey: ['files', 'catalog', dir], queryFn: ({ signal }) => fileCatalog(dir!, signal), enabled: dir !== null });
}

/** The open folder's own name (the root's name at the root), e.g. for dialogs that name the folder. */
export function useFolderName(dir: string | null, rootName: string): string {
  const catalog = useCatalog(dir);
  return (dir && catalog.data?.path.at(-1)?.name) || rootName;
}

/**
 * 个人文件 / a / b — built from the server's catalog of the open folder; each part opens that folder.
 * `hiddenIds` are left out (a space's root folder, which the root link already stands for).
 */
export function FileBreadcrumb({ dir, rootName, hiddenIds = [], onOpen }: { dir: string | null; rootName: string; hiddenIds?: readonly string[]; onOpen: (dir: string | null) => void }) {
  const catalog = useCatalog(dir);
  const path: Path = catalog.data?.path ?? [];

  const link = (id: string | null, name: string, isLast: boolean) =>
    isLast ? (
      <span>{name}</span>
    ) : (
      <a
        href="#"
        onClick={(e) => {
          e.preventDefault();
          onOpen(id);
        }}
      >
        {name}
      </a>
    );

  const parts = dir ? path.filter((p) => !hiddenIds.includes(p.id)) : [];
  const items = [
    { key: 'root', title: link(null, rootName, parts.length === 0) },
    ...parts.map((p, i) => ({ key: p.id, title: link(p.id, p.name, i === parts.length - 1) })),
  ];
  return <Breadcrumb items={items} data-testid="breadcrumb" />;
}
