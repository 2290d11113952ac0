import { createContext, useContext, type ComponentType, type ReactNode } from 'react';
import type { FileEntry } from '../../../../common/api/types';

/** What the 分享 dialog takes: the entries to share (null = closed) and how it closes. */
export interface ShareDialogProps {
  entries: FileEntry[] | null;
  onClose: () => void;
}

/**
 * The parts of the file browser that another feature owns. No feature imports another, so the app
 * layer (src/app/MainShell.tsx) hands them in, as it hands the transfer panel to the layout. A part
 * not handed in is not offered (no 分享 in the menus without a share dialog).
 */
export interface FileBrowserParts {
  /** 分享 (src/features/sharing). */
  ShareDialog?: ComponentType<ShareDialogProps>;
}

const PartsContext = createContext<FileBrowserParts>({});

/** Gives every file browser below it the parts other features own. */
export function FileBrowserSlots({ parts, children }: { parts: FileBrowserParts; children: ReactNode }) {
  return <PartsContext.Provider value={parts}>{children}</PartsContext.Provider>;
}

export const useFileBrowserParts = (): FileBrowserParts => useContext(PartsContext);
