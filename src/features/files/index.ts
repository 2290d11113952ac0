/**
 * The file pages (spec §2, /main/file/* and /main/group). Rooms, each a folder:
 *  - browser/   the one FileBrowser every page uses: layout, toolbar, table and grid, keyboard, its dialogs
 *               (BrowserDialogs) and the parts other features hand in (browser-slots: 分享).
 *  - listing/   what a page lists and how it pages: the source, the current folder, sort, cached pages.
 *  - actions/   what each action offers (file-actions, pure) and does (use-file-actions: online or
 *               kept in the outbox, its toast, the rows it patches), conflicts, downloads.
 *  - offline/   the outbox's file changes (queueing, replay executors) and its 待同步 panel.
 *  - dialogs/   name, text file, folder picker, versions, conflicts, intercepted files.
 *  - preview/   the preview modal and what each kind of file previews as.
 *  - uploads/   picked, dropped and new-version uploads, and their name clashes.
 *  - search/    keyword and unified search.  groups/  群组空间 and its members.
 * Here: the pages (FilePages), the feature's API calls (files-api), spaces and entry locations.
 * Share dialogs live in features/sharing; src/app/MainShell.tsx hands them in.
 */
export {
  BackupsPage,
  FavoritePage,
  KeywordSearchPage,
  OtherFilesPage,
  PersonalFilesPage,
  PublicSpacePage,
  RecyclePage,
  SharedFilesPage,
  UnifiedSearchPage,
} from './FilePages';
export { FileBrowserSlots, type FileBrowserParts, type ShareDialogProps } from './browser/browser-slots';

// Offline changes of the file pages are replayed by the outbox (src/lib/outbox) once this feature is loaded.
import { registerFileOutboxExecutors } from './offline/offline-ops';
registerFileOutboxExecutors();
