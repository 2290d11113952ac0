export { ShareLinkPage } from './ShareLinkPage';
export { OpenShareLinkPage } from './OpenShareLinkPage';
