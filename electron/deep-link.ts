/**
 * Native messages that open a file (spec §1: "open an online-edit preview when it receives a native
 * message"): a `clouddrive://` link (the OS hands it to the app, or to the running instance as a
 * second-instance argument) or a `--preview=<fileId>` argument. Both become the web app's page with
 * `?preview=<fileId>`, which opens that file's preview (src/features/files: useDeepLinkPreview).
 *
 *   clouddrive://preview/<fileId>      clouddrive://preview?fileId=<fileId>      --preview=<fileId>
 */
export const DEEP_LINK_SCHEME = 'clouddrive';

/** Ids as the server issues them (server/ids.ts: base64url); anything else is refused. */
const FILE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The file id a link or argument asks to preview, or null when it is not such a message. */
export function fileIdOfMessage(message: string): string | null {
  if (message.startsWith('--preview=')) {
    const id = message.slice('--preview='.length);
    return FILE_ID.test(id) ? id : null;
  }
  let url: URL;
  try {
    url = new URL(message);
  } catch {
    return null;
  }
  if (url.protocol !== `${DEEP_LINK_SCHEME}:`) return null;
  // clouddrive://preview/<id>: host "preview", path "/<id>"; clouddrive://preview?fileId=<id>.
  if (url.hostname !== 'preview') return null;
  const id = url.searchParams.get('fileId') ?? decodeURIComponent(url.pathname.replace(/^\/+/, ''));
  return FILE_ID.test(id) ? id : null;
}

/** The first message among a process's arguments (argv of a start or of a second instance). */
export function fileIdOfArgs(args: readonly string[]): string | null {
  for (const arg of args) {
    const id = fileIdOfMessage(arg);
    if (id) return id;
  }
  return null;
}

/** Where the window goes to show the preview: the personal files page, which opens it. */
export function previewUrlFor(appUrl: string, fileId: string): string {
  const url = new URL('/main/file/personal', appUrl);
  url.searchParams.set('preview', fileId);
  return url.toString();
}
