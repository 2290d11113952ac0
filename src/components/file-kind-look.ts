/** How each file kind looks: kept in common/ (the server draws the link page's file too). */
export { displayKindOf, FILE_KINDS, fileKindLook, type FileKindLook } from '../../common/files/kind-look';
