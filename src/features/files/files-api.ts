import { API } from '../../../common/api/paths';
import type {
  FileCatalogRequest,
  FileCatalogResponse,
  FileCategory,
  FileEntry,
  FileListRequest,
  FileListResponse,
  MkdirRequest,
  RenameRequest,
} from '../../../common/api/types';
import { FILE_LIST_DEFAULT_PAGE_SIZE } from '../../../common/api/types';
import { api } from '../../lib/api';

export function listFiles(parentId: string | null, category: FileCategory, cursor: string | null): Promise<FileListResponse> {
  const body: FileListRequest = { parentId, category, cursor, pageSize: FILE_LIST_DEFAULT_PAGE_SIZE, sortField: 'name', sortOrder: 'asc' };
  return api.post<FileListResponse>(API.fileList, body);
}

export function fileCatalog(id: string | null): Promise<FileCatalogResponse> {
  const body: FileCatalogRequest = { id };
  return api.post<FileCatalogResponse>(API.fileCatalog, body);
}

export function makeFolder(req: MkdirRequest): Promise<FileEntry> {
  return api.post<FileEntry>(API.mkdir, req);
}

export function renameFile(req: RenameRequest): Promise<FileEntry> {
  return api.post<FileEntry>(API.rename, req);
}
