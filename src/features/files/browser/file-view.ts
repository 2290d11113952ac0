/** List or grid (thumbnails): how a user sees file lists, remembered per user on this browser. */
export type FileView = 'list' | 'grid';

export const isFileView = (v: unknown): v is FileView => v === 'list' || v === 'grid';

/** The stored key of a user's choice. */
export const viewKeyOf = (userId: string | undefined): string => `fileView:${userId ?? ''}`;
