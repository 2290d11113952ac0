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
  PlayCircleOutlined,
  SoundOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import type { ComponentType, CSSProperties } from 'react';
import type { FileKind } from '../../common/api/types';

const ICONS: Record<FileKind, { Icon: ComponentType<{ style?: CSSProperties; "aria-hidden"?: boolean }>; color: string }> = {
  word: { Icon: FileWordOutlined, color: '#2b579a' },
  excel: { Icon: FileExcelOutlined, color: '#217346' },
  ppt: { Icon: FilePptOutlined, color: '#d24726' },
  pdf: { Icon: FilePdfOutlined, color: '#e5252a' },
  txt: { Icon: FileTextOutlined, color: '#595959' },
  picture: { Icon: FileImageOutlined, color: '#13a8a8' },
  video: { Icon: PlayCircleOutlined, color: '#722ed1' },
  music: { Icon: SoundOutlined, color: '#eb2f96' },
  package: { Icon: FileZipOutlined, color: '#d48806' },
  unknown: { Icon: FileOutlined, color: '#8c8c8c' },
  folder: { Icon: FolderFilled, color: '#faad14' },
  groupFolder: { Icon: TeamOutlined, color: '#faad14' },
};

/** Icon of a spec §3 file kind. */
export function FileKindIcon({ kind, size = 18 }: { kind: FileKind; size?: number }) {
  const { Icon, color } = ICONS[kind] ?? ICONS.unknown;
  return <Icon style={{ color, fontSize: size }} aria-hidden />;
}
