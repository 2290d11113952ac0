/**
 * Where 获取桌面客户端 leads — the one place to change it. The web app serves no client installers
 * yet (the client releases are issue 24's): until then the help dialog explains how to get the client
 * from the administrator. When the releases are served, set `downloadUrl` to their page and the same
 * dialog (user menu, 同步文件) offers the download first.
 */
export const DESKTOP_CLIENT = {
  /** A page or file the browser can open to download the client; null = none served (ask the administrator). */
  downloadUrl: null as string | null,
};

/** Inside the desktop shell (its bridge is there): the client is already installed. */
export function inDesktopShell(): boolean {
  return typeof window !== 'undefined' && Boolean(window.desktop);
}
