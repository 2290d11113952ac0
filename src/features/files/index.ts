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
