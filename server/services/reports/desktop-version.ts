/**
 * The desktop client's version from its User-Agent: Electron's default User-Agent names the app and
 * its version just before Chrome's (`… 企业云盘/1.2.0 Chrome/130.0.0.0 Electron/33.0.0 Safari/537.36`).
 * null when the agent is not the desktop client's.
 */
export function desktopVersionOf(userAgent: string): string | null {
  if (!/\bElectron\/\d/.test(userAgent)) return null;
  const m = /\S+\/(\d+(?:\.\d+)*[\w.+-]*)\s+Chrome\/[\d.]+/.exec(userAgent);
  return m ? m[1]! : '';
}
