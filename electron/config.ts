/**
 * Desktop shell settings: from the environment (development: `npm run desktop`), else the values a
 * packaged build was made with (electron/build.ts bakes DRIVE_URL and NETWORK_ENV in as
 * DRIVE_URL_DEFAULT and NETWORK_ENV_DEFAULT).
 */
export interface DesktopConfig {
  /** The server whose web app the window shows. */
  appUrl: string;
  networkEnv: 'internal' | 'public';
}

export function readDesktopConfig(env: Record<string, string | undefined>): DesktopConfig {
  const networkEnv = (env.NETWORK_ENV ?? env.NETWORK_ENV_DEFAULT) === 'public' ? 'public' : 'internal';
  const appUrl = env.DRIVE_URL ?? env.DRIVE_URL_DEFAULT ?? 'http://localhost:8080';
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
