/** Spec §1: the desktop client blocks F1 (help) and F5 (reload, which would drop in-flight work). */
export const BLOCKED_KEYS: ReadonlySet<string> = new Set(['F1', 'F5']);

export interface KeyInput {
  type: string;
  key: string;
}

export function shouldBlockKey(input: KeyInput): boolean {
  return (input.type === 'keyDown' || input.type === 'keyUp') && BLOCKED_KEYS.has(input.key);
}
