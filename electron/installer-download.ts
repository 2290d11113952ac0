/**
 * Downloads the installer a release names (`ClientVersion.installer`, issue 38) — plain Node, no
 * Electron, so it is tested against the real server: streamed to `<name>.part` with progress, resumed
 * with a Range request when a part is already there (an installer of a few hundred MB over a poor
 * network), then checked — its size, and its content fingerprint when the server gives one (the same
 * SHA-256 over chunk digests the server stores, common/transfer) — and only then renamed to its name.
 * A part that fails the check is deleted, so the next try starts clean.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { ClientInstaller } from '../common/api/types';
import { StreamingContentDigests } from '../common/transfer/chunk-digest';
import { fingerprintInput } from '../common/transfer/protocol';

/** `fetch` as Node and Electron's `net.fetch` both offer it. */
export type FetchLike = (url: string, init?: { headers?: Record<string, string>; signal?: AbortSignal }) => Promise<Response>;

export interface InstallerDownload {
  installer: ClientInstaller;
  /** The server's address: the installer's url is relative to it. */
  appUrl: string;
  /** The folder to put the installer in (made when missing). */
  dir: string;
  fetch: FetchLike;
  /** Sent with every request (the client's platform and network headers). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Bytes on disk so far and the installer's size, after every piece written. */
  onProgress?: (received: number, total: number) => void;
}

/** Chinese, for the update dialog's detail line. */
export class InstallerCheckError extends Error {}

export const INSTALLER_TEXT = {
  sizeMismatch: '安装包大小与服务器记录不符，已删除，请重试',
  digestMismatch: '安装包内容校验失败（可能在传输中损坏），已删除，请重试',
  notFound: '服务器上的安装包已撤下',
  http: (status: number) => `下载安装包失败（HTTP ${status}）`,
} as const;

/** A name the file system takes: the last path part, without characters Windows refuses. */
export function safeInstallerName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[<>:"|?*\u0000-\u001f]/g, '_').replace(/^[\s.]+|[\s.]+$/g, '');
  return clean || 'installer';
}

const sizeOf = async (file: string): Promise<number | null> => stat(file).then((s) => s.size, () => null);

/** The content fingerprint of a file on disk, as the server computes it for a blob. */
export async function fileFingerprint(file: string, chunkSize: number, signal?: AbortSignal): Promise<string> {
  const digests = new StreamingContentDigests(chunkSize, () => createHash('sha256'));
  for await (const piece of createReadStream(file, { highWaterMark: 1024 * 1024, signal })) digests.update(piece as Buffer);
  return createHash('sha256').update(fingerprintInput(digests.finish())).digest('hex');
}

/** Throws InstallerCheckError (after deleting the file) when the file is not what the server holds. */
async function check(file: string, installer: ClientInstaller, signal?: AbortSignal): Promise<void> {
  if ((await sizeOf(file)) !== installer.size) {
    await rm(file, { force: true });
    throw new InstallerCheckError(INSTALLER_TEXT.sizeMismatch);
  }
  if (installer.digest && (await fileFingerprint(file, installer.digest.chunkSize, signal)) !== installer.digest.fingerprint) {
    await rm(file, { force: true });
    throw new InstallerCheckError(INSTALLER_TEXT.digestMismatch);
  }
}

/**
 * Whether the installer can be had (the flow's "check" step for a release with an installer): asks for
 * its first byte. True when the server serves it, false when it answers 404 (withdrawn since).
 */
export async function probeInstaller(o: Pick<InstallerDownload, 'installer' | 'appUrl' | 'fetch' | 'headers' | 'signal'>): Promise<boolean> {
  const res = await o.fetch(new URL(o.installer.url, o.appUrl).toString(), { headers: { ...o.headers, range: 'bytes=0-0' }, signal: o.signal });
  await res.body?.cancel();
  if (res.status === 404) return false;
  if (!res.ok) throw new Error(INSTALLER_TEXT.http(res.status));
  return true;
}

/** Downloads, resumes and checks the installer; resolves with its path. */
export async function downloadInstaller(o: InstallerDownload): Promise<string> {
  const { installer, signal } = o;
  await mkdir(o.dir, { recursive: true });
  const target = path.join(o.dir, safeInstallerName(installer.name));
  const part = `${target}.part`;
  // Downloaded before (the person said 稍后 to installing): checked again, not fetched again.
  if ((await sizeOf(target)) === installer.size) {
    try {
      await check(target, installer, signal);
      o.onProgress?.(installer.size, installer.size);
      return target;
    } catch (error) {
      if (!(error instanceof InstallerCheckError)) throw error;
    }
  }
  let have = (await sizeOf(part)) ?? 0;
  if (have > installer.size) {
    await rm(part, { force: true });
    have = 0;
  }
  const url = new URL(installer.url, o.appUrl).toString();
  const res = have > 0 && have < installer.size ? await o.fetch(url, { headers: { ...o.headers, range: `bytes=${have}-` }, signal }) : have === installer.size ? null : await o.fetch(url, { headers: o.headers, signal });
  if (res) {
    if (res.status === 404) throw new Error(INSTALLER_TEXT.notFound);
    if (res.status === 416) {
      // The part no longer fits what the server holds: start over.
      await res.body?.cancel();
      await rm(part, { force: true });
      return downloadInstaller(o);
    }
    if (!res.ok || !res.body) throw new Error(INSTALLER_TEXT.http(res.status));
    // 206: the server continues where the part ends; 200: it sent everything, so the part starts again.
    const append = res.status === 206;
    if (append && contentRangeStart(res.headers.get('content-range')) !== have) {
      await res.body.cancel();
      await rm(part, { force: true });
      return downloadInstaller(o);
    }
    if (!append) have = 0;
    let received = have;
    const count = new Transform({
      transform(piece: Buffer, _encoding, done) {
        received += piece.length;
        o.onProgress?.(received, installer.size);
        done(null, piece);
      },
    });
    await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>, { signal }), count, createWriteStream(part, { flags: append ? 'a' : 'w' }), { signal });
  }
  await check(part, installer, signal);
  await rename(part, target);
  return target;
}

function contentRangeStart(header: string | null): number | null {
  const match = header ? /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(header.trim()) : null;
  return match ? Number(match[1]) : null;
}
