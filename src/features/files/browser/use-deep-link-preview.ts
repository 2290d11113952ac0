import { useEffect, useRef, useState } from 'react';
import type { FileEntry } from '../../../../common/api/types';
import { entriesByIds } from '../files-api';
import { documentTargetOf, type DocumentTarget } from '../../../components/document/target';

/**
 * `?preview=<fileId>` on a file page opens that file (the desktop shell sends a clouddrive:// link or a
 * `--preview` argument here: spec §1, "open an online-edit preview when it receives a native message");
 * with `&page=<n>&term=<text>` a document opens at that page with the term found (components/document/target.ts).
 * The parameters are dropped from the address once read, so a reload does not open it again.
 */
export function useDeepLinkPreview(open: (file: FileEntry, at?: DocumentTarget) => void, notFound: () => void): void {
  const handled = useRef(false);
  useEffect(() => {
    if (handled.current) return;
    handled.current = true;
    const params = new URLSearchParams(window.location.search);
    const id = params.get('preview');
    if (!id) return;
    const at = documentTargetOf(params) ?? undefined;
    params.delete('preview');
    params.delete('page');
    params.delete('term');
    const rest = params.toString();
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${rest ? `?${rest}` : ''}`);
    void entriesByIds([id]).then(
      ([file]) => (file && !file.isDir ? open(file, at) : notFound()),
      () => notFound(),
    );
  }, [open, notFound]);
}

/**
 * The file a deep link names, opened as a double click would open it (its preview, or its download),
 * once the button permissions that gate both are known.
 */
export function useDeepLinkOpen(open: (file: FileEntry, at?: DocumentTarget) => void, permissionsKnown: boolean, notFound: () => void): void {
  const [linked, setLinked] = useState<{ file: FileEntry; at?: DocumentTarget } | null>(null);
  useDeepLinkPreview((file, at) => setLinked({ file, at }), notFound);
  useEffect(() => {
    if (!linked || !permissionsKnown) return;
    setLinked(null);
    open(linked.file, linked.at);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- open reads the current props; run once per linked file
  }, [linked, permissionsKnown]);
}
