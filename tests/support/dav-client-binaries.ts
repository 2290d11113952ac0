/** Which of the WebDAV clients the integration tests drive are missing (tests/run-all.ts refuses to start without them). */
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** The WebDAV clients the integration tests drive (Debian packages of the same names). */
export const DAV_CLIENTS = ['litmus', 'cadaver', 'rclone'] as const;

/** Those of DAV_CLIENTS not on PATH. */
export function missingDavClients(): string[] {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  const onPath = (cmd: string) =>
    dirs.some((d) => {
      try {
        accessSync(path.join(d, cmd), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
  return DAV_CLIENTS.filter((c) => !onPath(c));
}

export const DAV_CLIENTS_MISSING_MESSAGE = 'the WebDAV tests drive Debian\'s litmus, cadaver and rclone: sudo apt-get install -y litmus cadaver rclone (.ci/run does)';
