import type { TransferItemView } from '../../../common/transfer/engine-api';

/** An installer on its way up, as 客户端版本 shows it under the form. */
export interface InstallerUpload {
  name: string;
  size: number;
  /** 'failed': nothing moves by itself (the person may retry it in the transfer list, or pick another file). */
  state: 'waiting' | 'uploading' | 'held' | 'failed';
  percent: number;
  /** Chinese, shown in place of the state's text. */
  error: string | null;
}

/** The engine's item as the card shows it. */
export function installerProgress(item: TransferItemView): InstallerUpload {
  const percent = item.size > 0 ? Math.floor((item.bytesDone / item.size) * 100) : item.state === 'done' ? 100 : 0;
  const base = { name: item.name, size: item.size, percent, error: null };
  switch (item.state) {
    case 'waiting':
    case 'paused':
      return { ...base, state: 'waiting' };
    case 'held':
      return { ...base, state: 'held' };
    case 'failed': {
      // A name the server refuses, or a type it refused (the installer purpose lets .exe, .msi and AppImage
      // installers through for admins who may set releases, docs/desktop.md): retrying cannot help.
      const hint = item.holdReason === 'blockedType' || item.holdReason === 'badName' ? '' : '（可在传输列表中重试）';
      return { ...base, state: 'failed', error: `${item.lastError ?? '上传失败'}${hint}` };
    }
    default:
      return { ...base, state: 'uploading' };
  }
}
