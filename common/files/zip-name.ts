/**
 * The name of a ZIP of several entries (without `.zip`), as Baidu Netdisk names it: one folder is
 * named after itself, one file after its name without the extension, several entries after the
 * first one and how many there are — `报告 等3个文件` — rather than a generic 打包下载.
 * The client names its link with it and the server uses it when a request names none.
 */
export function archiveBaseName(entries: ReadonlyArray<{ name: string; isDir: boolean }>): string {
  const first = entries[0];
  if (!first) return '打包下载';
  const stem = first.isDir ? first.name : withoutExtension(first.name);
  return entries.length === 1 ? stem : `${stem} 等${entries.length}个文件`;
}

/** `报告.final.docx` → `报告.final`; a name that is only an extension (`.env`) stays whole. */
function withoutExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}
