/** Lower-case extension without dot, '' when the name has none ('.env' has none). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).trim().toLowerCase();
}
