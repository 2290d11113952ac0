import type { DavHandler } from './context';
import type { DavDeps } from './deps';
import { allowedMethods, DAV_METHODS } from './registry';

/**
 * OPTIONS (RFC 4918 §10.1): the classes this server speaks and the methods it answers. Class 2 only
 * once LOCK and UNLOCK answer (davlock); MS-Author-Via makes Office save through WebDAV.
 */
export const optionsHandler = (_deps: DavDeps): DavHandler => async (ctx) => {
  const locking = DAV_METHODS.LOCK != null && DAV_METHODS.UNLOCK != null;
  ctx.reply
    .code(200)
    .header('DAV', locking ? '1, 2' : '1')
    .header('Allow', allowedMethods().join(', '))
    .header('MS-Author-Via', 'DAV')
    .header('Accept-Ranges', 'bytes')
    .header('Content-Length', '0')
    .send();
};
