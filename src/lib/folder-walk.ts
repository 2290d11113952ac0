/**
 * Turns what the user dropped or picked into plain files and folder entries (with the path inside the
 * folder), for enqueueUploads / enqueueFolder. Dropped folders are walked with the File and Directory
 * Entries API (webkitGetAsEntry, createReader().readEntries() until it returns nothing).
 */
import type { FolderEntry } from '../../common/transfer/engine-api';

export interface PickedFiles {
  /** Files dropped or picked on their own. */
  files: File[];
  /** Files inside dropped or picked folders; relativePath starts with the folder's name. */
  folderEntries: FolderEntry<File>[];
}

function readEntries(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}

function entryFile(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

/** Every file under `dir`, depth first; `prefix` is dir's path ('photos/2024'). */
async function walkDirectory(dir: FileSystemDirectoryEntry, prefix: string, out: FolderEntry<File>[]): Promise<void> {
  const reader = dir.createReader();
  // readEntries returns at most ~100 entries per call in Chromium: call until it returns none.
  for (;;) {
    const batch = await readEntries(reader);
    if (batch.length === 0) break;
    for (const entry of batch) {
      const path = `${prefix}/${entry.name}`;
      if (entry.isFile) out.push({ file: await entryFile(entry as FileSystemFileEntry), relativePath: path });
      else if (entry.isDirectory) await walkDirectory(entry as FileSystemDirectoryEntry, path, out);
    }
  }
}

/**
 * What a drop carried. Must be called synchronously from the drop handler: the DataTransfer's items
 * are only readable during the event, so the entries are taken before anything is awaited.
 */
export function collectDropped(dataTransfer: DataTransfer): Promise<PickedFiles> {
  const entries: Array<FileSystemEntry | File> = [];
  const items = Array.from(dataTransfer.items ?? []).filter((item) => item.kind === 'file');
  if (items.length > 0) {
    for (const item of items) {
      const entry = typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null;
      const file = entry ? null : item.getAsFile();
      if (entry) entries.push(entry);
      else if (file) entries.push(file);
    }
  } else {
    entries.push(...Array.from(dataTransfer.files ?? []));
  }
  return (async () => {
    const picked: PickedFiles = { files: [], folderEntries: [] };
    for (const entry of entries) {
      if (entry instanceof File) picked.files.push(entry);
      else if (entry.isFile) picked.files.push(await entryFile(entry as FileSystemFileEntry));
      else if (entry.isDirectory) await walkDirectory(entry as FileSystemDirectoryEntry, entry.name, picked.folderEntries);
    }
    return picked;
  })();
}

/** Files from an `<input webkitdirectory>`: each carries its path in webkitRelativePath. */
export function folderEntriesFromInput(files: File[]): FolderEntry<File>[] {
  return files.map((file) => ({ file, relativePath: file.webkitRelativePath || file.name }));
}

