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
export { GroupPage } from './GroupPage';
