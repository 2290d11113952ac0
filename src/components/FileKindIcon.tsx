import {
  FileExcelOutlined,
  FileImageOutlined,
  FileOutlined,
  FilePdfOutlined,
  FilePptOutlined,
  FileTextOutlined,
  FileWordOutlined,
  FileZipOutlined,
  FolderFilled,
  KeyOutlined,
  PlayCircleOutlined,
  SoundOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import type { ComponentType, CSSProperties } from 'react';
import type { FileKind } from '../../common/api/types';
import { fileKindLook } from './file-kind-look';

const ICONS: Record<FileKind, ComponentType<{ style?: CSSProperties; 'aria-hidden'?: boolean }>> = {
  word: FileWordOutlined,
  excel: FileExcelOutlined,
  ppt: FilePptOutlined,
  pdf: FilePdfOutlined,
  txt: FileTextOutlined,
  picture: FileImageOutlined,
  video: PlayCircleOutlined,
  music: SoundOutlined,
  package: FileZipOutlined,
  unknown: FileOutlined,
  folder: FolderFilled,
  groupFolder: TeamOutlined,
};

/**
 * Icon of a spec §3 file kind; the encrypted variant carries a small key badge in its corner. The
 * kind's Chinese label is the tooltip and the accessible name.
 */
export function FileKindIcon({ kind, encrypted = false, size = 18 }: { kind: FileKind; encrypted?: boolean; size?: number }) {
  const look = fileKindLook(kind, encrypted);
  const Icon = ICONS[look.kind];
  return (
    <span
      role="img"
      aria-label={look.label}
      title={look.label}
      data-testid="file-kind-icon"
      data-kind={look.kind}
      data-encrypted={encrypted ? 'true' : undefined}
      style={{ position: 'relative', display: 'inline-flex', lineHeight: 1, flex: 'none' }}
    >
      <Icon style={{ color: look.color, fontSize: size }} aria-hidden />
      {encrypted && (
        <KeyOutlined
          aria-hidden
          style={{ position: 'absolute', right: -4, bottom: -3, fontSize: Math.round(size * 0.55), color: '#cf1322', background: '#fff', borderRadius: '50%' }}
        />
      )}
    </span>
  );
}
