import type { FastifyInstance } from 'fastify';

/**
 * The policy the web app runs under (tests/e2e/security-headers.test.ts checks the app reports no
 * violation): scripts only from this origin ('wasm-unsafe-eval' lets hash-wasm compile its SHA-256
 * where WebCrypto is missing — it does not allow eval); styles also inline, because antd writes its
 * CSS-in-JS into <style> elements at run time; pictures, media and PDF previews also from blob: and
 * data: URLs the app makes itself; nothing may frame the app.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-src 'self' blob:",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  // For browsers that predate frame-ancestors.
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  // Share-link pages send no-referrer (LINK_PAGE_PREFIXES); elsewhere other sites see the origin only.
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=()',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

const isApiPath = (url: string): boolean => url.startsWith('/api/') || url.startsWith('/spacex/');

/** Pages whose address holds a link token (common/api/sharing.ts shareLinkPath): no referrer, ever. */
export const LINK_PAGE_PREFIXES = ['/shareLink', '/openShareLink', '/downLoadM'];
const isLinkPage = (url: string): boolean => LINK_PAGE_PREFIXES.some((p) => url === p || url.startsWith(`${p}/`) || url.startsWith(`${p}?`));

/**
 * Every response that is not an API answer (the app's HTML, scripts, workers, styles, icons) carries
 * the page headers. API answers set their own: user content previews send a sandbox CSP of their own,
 * and every answer is nosniff.
 */
export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (isApiPath(request.url)) {
      if (!reply.hasHeader('X-Content-Type-Options')) reply.header('X-Content-Type-Options', 'nosniff');
      return payload;
    }
    if (isLinkPage(request.url)) reply.header('Referrer-Policy', 'no-referrer');
    for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS)) if (!reply.hasHeader(name)) reply.header(name, value);
    return payload;
  });
}
