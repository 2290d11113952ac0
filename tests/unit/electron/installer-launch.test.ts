/** How the desktop hands a downloaded installer to the OS, and the file name it keeps it under (electron/installer-*.ts). */
import { describe, expect, it } from 'vitest';
import { safeInstallerName } from '../../../electron/installer-download';
import { installerLaunch } from '../../../electron/installer-launch';

describe('installer hand-over', () => {
  it('starts an NSIS exe or an AppImage itself (made executable) and quits; msiexec for an msi', () => {
    expect(installerLaunch('win32', 'C:\\u\\updates\\2.0.0\\setup.EXE')).toEqual({ kind: 'spawn', command: 'C:\\u\\updates\\2.0.0\\setup.EXE', args: [], makeExecutable: false, quit: true });
    expect(installerLaunch('win32', 'C:\\u\\setup.msi')).toMatchObject({ kind: 'spawn', command: 'msiexec', args: ['/i', 'C:\\u\\setup.msi'] });
    expect(installerLaunch('linux', '/home/u/.config/d/updates/2.0.0/drive.AppImage')).toMatchObject({ kind: 'spawn', makeExecutable: true, quit: true });
  });
  it('opens a dmg, pkg, deb or rpm with the system, and quits', () => {
    for (const [platform, file] of [['darwin', '/u/drive.dmg'], ['darwin', '/u/drive.pkg'], ['linux', '/u/drive.deb'], ['linux', '/u/drive.rpm']] as const) {
      expect(installerLaunch(platform, file)).toEqual({ kind: 'open', quit: true });
    }
  });
  it('only shows anything else in its folder and keeps running (nothing was installed)', () => {
    expect(installerLaunch('win32', 'C:\\u\\drive.zip')).toEqual({ kind: 'reveal', quit: false });
    expect(installerLaunch('darwin', '/u/drive.exe')).toEqual({ kind: 'reveal', quit: false });
    expect(installerLaunch('linux', '/u/noextension')).toEqual({ kind: 'reveal', quit: false });
  });
  it('keeps the installer under a name the file system takes', () => {
    expect(safeInstallerName('云盘客户端 2.0.0.exe')).toBe('云盘客户端 2.0.0.exe');
    expect(safeInstallerName('../../etc/passwd')).toBe('passwd');
    expect(safeInstallerName('a:b*c?.exe')).toBe('a_b_c_.exe');
    expect(safeInstallerName('..')).toBe('installer');
    expect(safeInstallerName(' setup.exe. ')).toBe('setup.exe');
  });
});
