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
      // A type the tenant blocks or a name the server refuses: retrying cannot help.
      // Executables (.exe, .msi, an AppImage's ELF) are refused by name and by content while the tenant
      // blocks program types, as it does by default (docs/desktop.md, "Known limit").
      const hint = item.holdReason === 'blockedType' ? '。本单位禁止上传可执行程序时，.exe、.msi、.AppImage 安装包无法上传，请换用 .dmg、.pkg、.deb、.rpm 或压缩包' : item.holdReason === 'badName' ? '' : '（可在传输列表中重试）';
      return { ...base, state: 'failed', error: `${item.lastError ?? '上传失败'}${hint}` };
    }
    default:
      return { ...base, state: 'uploading' };
  }
}
