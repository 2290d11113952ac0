/**
 * Keys the desktop shell swallows. Spec §1: F1 (help) and F5 (reload, which would drop in-flight
 * work). In the production build also the other reloads (Ctrl+R, Ctrl+Shift+R, Cmd+R on macOS),
 * which a developer keeps.
 */
export const BLOCKED_KEYS: ReadonlySet<string> = new Set(['F1', 'F5']);

export interface KeyInput {
  type: string;
  key: string;
  control?: boolean;
  meta?: boolean;
}

export function shouldBlockKey(input: KeyInput, production = false): boolean {
  if (input.type !== 'keyDown' && input.type !== 'keyUp') return false;
  if (BLOCKED_KEYS.has(input.key)) return true;
  return production && (input.control === true || input.meta === true) && input.key.toLowerCase() === 'r';
}
