/**
 * A share link's first screens as HTML with marks where the link's words go (common/link-page/template.ts),
 * drawn at build time (vite.config.ts, `linkPageTemplate`, writes them beside link.html; never part of
 * the app bundle) by the very views ShareLinkPage renders, in the state its first render has on a page
 * the server drew (its script not yet live, nothing typed). The server fills the marks in at each
 * request; src/link-main.tsx hydrates what it sent, so the page's elements stay the server's.
 */
import { createElement as h, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { FILE_KINDS } from '../../common/files/kind-look';
import { linkPageHole, type LinkPageShape, type LinkPageTemplates } from '../../common/link-page/template';
import { FileKindIcon } from '../components/FileKindIcon';
import { LinkCodeForm, LinkGone, LinkOpening, LinkPageShell } from '../features/share-link/link-page-views';
import { LinkSummaryView } from '../features/share-link/LinkSummaryCard';

const noop = () => undefined;

function summary(): ReactNode {
  const text = { sharer: linkPageHole('sharer'), initial: linkPageHole('initial'), shared: linkPageHole('shared'), detail: linkPageHole('detail'), expiry: linkPageHole('expiry') };
  return <LinkSummaryView text={text} name={linkPageHole('name')} icon={linkPageHole('icon')} />;
}

const BODIES: Record<LinkPageShape, () => ReactNode> = {
  code: () => (
    <>
      {summary()}
      <LinkCodeForm code="" busy={false} error={null} live={false} onCode={noop} onSubmit={noop} />
    </>
  ),
  opening: () => (
    <>
      {summary()}
      <LinkOpening />
    </>
  ),
  gone: () => <LinkGone />,
};

/**
 * React's markup of a link page's first screen, as the client's hydration expects it: renderToString
 * puts a `<link rel="preload">` for each image before it (a resource hint for a document's head, which
 * the client never renders; the browser finds the <img> itself).
 */
export function asHydrated(html: string): string {
  const markup = html.replace(/^(<link rel="preload" as="image"[^>]*\/>)+/, '');
  if (!markup.startsWith('<main')) throw new Error(`link page template: React drew ${markup.slice(0, 80)}`);
  return markup;
}

const page = (shape: LinkPageShape, compact: boolean) =>
  asHydrated(
    renderToString(
      <LinkPageShell compact={compact} logo={linkPageHole('logo')} brandName={linkPageHole('brand')}>
        {BODIES[shape]()}
      </LinkPageShell>,
    ),
  );

export function linkPageTemplates(): LinkPageTemplates {
  const pages = {} as LinkPageTemplates['pages'];
  for (const shape of Object.keys(BODIES) as LinkPageShape[]) pages[shape] = { wide: page(shape, false), compact: page(shape, true) };
  const icons = {} as LinkPageTemplates['icons'];
  for (const kind of FILE_KINDS) icons[kind] = renderToString(h(FileKindIcon, { kind, size: 36 }));
  return { pages, icons };
}
