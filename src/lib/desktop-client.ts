/*
 * Where 获取桌面客户端 leads is the tenant's release for this build's client type (系统配置 → 客户端版本,
 * read by components/DesktopClientHelpDialog.tsx through lib/data/client-releases.ts), not a constant.
 */

/** Inside the desktop shell (its bridge is there): the client is already installed. */
export function inDesktopShell(): boolean {
  return typeof window !== 'undefined' && Boolean(window.desktop);
}
