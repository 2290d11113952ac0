/**
 * "The file list changed" signal between features that may not import each other: the transfer panel
 * bumps it when an upload finishes, the files page reloads when it changes.
 */
import { atom } from 'jotai';

export const fileListVersionAtom = atom(0);

export const bumpFileListVersionAtom = atom(null, (get, set) => {
  set(fileListVersionAtom, get(fileListVersionAtom) + 1);
});
