import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERRORS } from '../../common/api/errors';
import { linkEntryOf, type LinkSummary } from '../../common/api/sharing';
import { LINK_PAGE_TEMPLATE_FILE } from '../../common/link-page/template';
import type { SystemConfig } from '../../common/api/types';
import { sendError } from '../http/error-handler';
import { PERSONAL_FRAME_BRAND, PERSONAL_FRAME_LOGO } from '../../common/personal-frame';
import { escapeHtml, loadLinkPageTemplate, renderLinkPage } from './link-page-html';

/** What a link's page is drawn with on the server: only what a visitor without a session may see. */
export interface LinkPageSource {
  /** The link's summary as the summary call answers a visitor without a session; 'gone'; or null: not theirs to see (the page asks itself). */
  summary(token: string): Promise<LinkSummary | 'gone' | null>;
  /** The brand a visitor without a session is shown. */
  config(): Promise<SystemConfig>;
}

/**
 * Files under assets/ carry a content hash in their name: a new build is a new name, so browsers may
 * keep them for a year without asking. Everything else (index.html, the service worker, the
 * manifest, icons) is revalidated on every use (ETag → 304), so a deploy reaches users at once.
 */
export function cacheControlFor(relativePath: string): string {
  return relativePath.split(path.sep)[0] === 'assets' ? 'public, max-age=31536000, immutable' : 'no-cache';
}

const isApiPath = (url: string): boolean => url.startsWith('/api/') || url.startsWith('/spacex/') || url === '/api' || url === '/spacex';

/** 个人文件, the home page: its HTML paints the page's frame before any script (vite.config.ts, personalFrameHtml). */
const PERSONAL_PAGE = '/main/file/personal';

/**
 * Serves the built web app with a single-page-app fallback: any other GET that is not an API path
 * gets index.html, so client-side routes survive a reload — except the pages an outsider opens from a
 * share link (common/api/sharing.ts linkEntryOf), which get link.html: their lean entry, without the
 * internal app's boot — a link's own page with the link drawn in (./link-page-html.ts), so it paints
 * before any script. Unknown API paths answer 404 JSON.
 */
export async function registerStaticRoutes(app: FastifyInstance, staticDir: string, linkPages?: LinkPageSource): Promise<void> {
  const hasApp = existsSync(path.join(staticDir, 'index.html'));
  // A build without the link pages' entry (an older one) serves them the app, which has them too.
  const hasLinkPages = existsSync(path.join(staticDir, 'link.html'));
  const linkTemplate = hasLinkPages && linkPages ? readWhenChanged([path.join(staticDir, 'link.html'), path.join(staticDir, LINK_PAGE_TEMPLATE_FILE)], () => loadLinkPageTemplate(staticDir)) : () => null;
  const personalPath = path.join(staticDir, 'personal.html');
  const personalFrame = linkPages ? readWhenChanged([personalPath], () => readFileSync(personalPath, 'utf8')) : () => null;
  if (hasApp) {
    await app.register(fastifyStatic, {
      root: staticDir,
      wildcard: true,
      index: ['index.html'],
      // The build writes .br and .gz twins (build/precompress.ts): sent as they are, with Vary.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (res, filePath) => {
        res.setHeader('Cache-Control', cacheControlFor(path.relative(staticDir, filePath)));
        // The same URL is sent as brotli, gzip or plain by the request's Accept-Encoding.
        res.setHeader('Vary', 'Accept-Encoding');
      },
    });
  } else {
    app.log.warn({ staticDir }, 'web app not built (no index.html): serving the API only');
  }

  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    if (hasApp && (request.method === 'GET' || request.method === 'HEAD') && !isApiPath(url)) {
      const entry = hasLinkPages ? linkEntryOf(url) : null;
      const template = entry ? linkTemplate() : null;
      if (entry && entry.page !== 'downloadExceeded' && template && linkPages) {
        const served = await servedLinkPage(linkPages, entry.token).catch((err: unknown) => {
          request.log.error({ err }, 'link page: drawn by the browser instead');
          return null;
        });
        // Each visit's own (the link may end at any moment): never stored, by the browser or on the way.
        if (served) {
          const html = renderLinkPage(template, { ...served, token: entry.token }, entry.page === 'downLoadM');
          return reply.header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(compressed(request, reply, html));
        }
      }
      // 个人文件 gets index.html with the page's frame drawn in (the build's personal.html) and the
      // tenant's brand written in: the same for every visitor, nothing of a user's.
      const frame = url === PERSONAL_PAGE ? personalFrame() : null;
      if (frame && linkPages) {
        const config = await linkPages.config().catch((err: unknown) => {
          request.log.error({ err }, 'personal page: sent without its frame');
          return null;
        });
        if (config) {
          const html = withBrand(frame, config);
          // Revalidated like index.html: a deployment or a new brand changes the tag.
          const etag = `"pf-${createHash('sha1').update(html).digest('base64url')}"`;
          reply.header('Cache-Control', 'no-cache').header('ETag', etag);
          if (request.headers['if-none-match'] === etag) return reply.code(304).send();
          return reply.type('text/html; charset=utf-8').send(compressed(request, reply, html));
        }
      }
      // index.html must not be cached, or users keep an old app after a deploy.
      const page = entry ? 'link.html' : 'index.html';
      return reply.header('Cache-Control', 'no-cache').sendFile(page);
    }
    return sendError(reply, 404, ERRORS.ROUTE_NOT_FOUND.code, ERRORS.ROUTE_NOT_FOUND.message);
  });
}

/**
 * What the server draws from files of the build, read again whenever one of them changes (mtime, size):
 * a deployment writes a new build into the static directory while the server runs, and @fastify/static
 * reads index.html and the assets from disk on each request, so a page kept from the old build would
 * name chunks the new one no longer has (personal.html preloads the shell's). Null while a file is
 * missing or unreadable (mid-deployment): the caller then serves index.html.
 */
function readWhenChanged<T>(files: readonly string[], load: () => T | null): () => T | null {
  let seen: string | null = null;
  let value: T | null = null;
  return () => {
    const stats = files.map((file) => statSync(file, { throwIfNoEntry: false }));
    const stamp = stats.map((stat) => (stat ? `${stat.mtimeMs}:${stat.size}` : '-')).join('|');
    if (stamp !== seen) {
      try {
        value = stats.every(Boolean) ? load() : null;
      } catch {
        value = null;
      }
      seen = stamp;
    }
    return value;
  };
}

/** personal.html with the system config's logo and brand name over the frame's marks. */
export function withBrand(template: string, config: SystemConfig): string {
  const logo = escapeHtml(config.logo || '/favicon.svg'); // the app's DEFAULT_LOGO
  const brand = escapeHtml(config.brandName);
  // Function replacements: a string one would read `$&`, `$'` and `$\`` in an administrator's brand as patterns.
  return template.replaceAll(PERSONAL_FRAME_LOGO, () => logo).replaceAll(PERSONAL_FRAME_BRAND, () => brand);
}

async function servedLinkPage(source: LinkPageSource, token: string) {
  const [summary, config] = await Promise.all([source.summary(token), source.config()]);
  if (summary === null) return null;
  return summary === 'gone' ? { gone: true as const, config } : { summary, config };
}

/**
 * A page written per request, compressed as the build's files are (brotli, else gzip): ~30 kB of HTML
 * (link.html holds antd's theme variables) becomes ~6 kB. Quality 5: ~1 ms here, most of the gain.
 */
function compressed(request: FastifyRequest, reply: FastifyReply, html: string): Buffer | string {
  const accepted = String(request.headers['accept-encoding'] ?? '');
  reply.header('Vary', 'Accept-Encoding');
  if (/\bbr\b/.test(accepted)) {
    reply.header('Content-Encoding', 'br');
    return brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
  }
  if (/\bgzip\b/.test(accepted)) {
    reply.header('Content-Encoding', 'gzip');
    return gzipSync(html);
  }
  return html;
}
