import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { DESKTOP_RELEASE_PATH } from '../config';

/**
 * The desktop release's files (DESKTOP_RELEASE_DIR: latest.yml, latest-mac.yml, latest-linux.yml
 * and the installers electron-builder wrote) for the desktop's updater: public, as any download page
 * is, with Range (electron-updater resumes and downloads differentially). Nothing is served when the
 * folder is not set.
 */
export async function registerDesktopReleaseRoutes(app: FastifyInstance, dir: string | undefined): Promise<void> {
  if (!dir || !existsSync(dir)) return;
  await app.register(fastifyStatic, {
    root: dir,
    prefix: DESKTOP_RELEASE_PATH,
    decorateReply: false,
    index: false,
    list: false,
    dotfiles: 'deny',
    // latest*.yml changes with each release; the installers are named by version.
    cacheControl: false,
    setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache'),
  });
}
