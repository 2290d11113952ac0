/** Desktop shell settings, from the environment so the same binary serves either network build. */
export interface DesktopConfig {
  /** The server whose web app the window shows. */
  appUrl: string;
  networkEnv: 'internal' | 'public';
}

export function readDesktopConfig(env: Record<string, string | undefined>): DesktopConfig {
  const networkEnv = env.NETWORK_ENV === 'public' ? 'public' : 'internal';
  const appUrl = env.DRIVE_URL ?? 'http://localhost:8080';
  const parsed = new URL(appUrl); // throws on garbage: better at start than a blank window
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`DRIVE_URL must be http(s): ${appUrl}`);
  return { appUrl: parsed.toString(), networkEnv };
}

/** Navigation stays on the server's origin; anything else opens outside the app. */
export function isSameOrigin(target: string, appUrl: string): boolean {
  try {
    return new URL(target).origin === new URL(appUrl).origin;
  } catch {
    return false;
  }
}
