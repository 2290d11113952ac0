/**
 * How a downloaded installer is handed to the operating system (pure, tested under Node; updater.ts
 * carries it out with Electron's shell and child_process):
 *  - Windows: an NSIS `.exe` is started detached and the app quits so it can replace the files; an
 *    `.msi` goes to msiexec;
 *  - macOS: a `.dmg` or `.pkg` is opened (Finder mounts the image, Installer runs the package); the app
 *    quits so the new one can take its place;
 *  - Linux: an `.AppImage` is made executable and started, a `.deb` / `.rpm` opened with the desktop's
 *    software installer;
 *  - anything else: shown in its folder, and the app keeps running (nothing was installed).
 */
export type InstallerLaunch =
  | { kind: 'spawn'; command: string; args: string[]; makeExecutable: boolean; quit: true }
  | { kind: 'open'; quit: true }
  | { kind: 'reveal'; quit: false };

export function installerLaunch(platform: NodeJS.Platform, file: string): InstallerLaunch {
  const ext = /\.[^.\\/]+$/.exec(file)?.[0].toLowerCase() ?? '';
  if (platform === 'win32') {
    if (ext === '.exe') return { kind: 'spawn', command: file, args: [], makeExecutable: false, quit: true };
    if (ext === '.msi') return { kind: 'spawn', command: 'msiexec', args: ['/i', file], makeExecutable: false, quit: true };
  }
  if (platform === 'darwin' && (ext === '.dmg' || ext === '.pkg')) return { kind: 'open', quit: true };
  if (platform === 'linux') {
    if (ext === '.appimage') return { kind: 'spawn', command: file, args: [], makeExecutable: true, quit: true };
    if (ext === '.deb' || ext === '.rpm') return { kind: 'open', quit: true };
  }
  return { kind: 'reveal', quit: false };
}
