export { DownloadExceededPage, NotFoundPage, PermissionDeniedPage, StandalonePlaceholderPage } from './StatusPages';
