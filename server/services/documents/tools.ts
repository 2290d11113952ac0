import { constants, promises as fsp } from 'node:fs';
import path from 'node:path';
import { runTool } from './run-tool';

/** How converter runs are kept off the network (docs/documents.md, "Isolation"). */
export type NetworkIsolation = 'netns' | 'user-netns' | 'no-proxy';

/**
 * The converter binaries found on this machine at start, and how their runs are isolated. Missing
 * ones are named for the admin card (LibreOffice 未安装): without soffice Office documents wait
 * queued and their previews answer PREVIEW_UNSUPPORTED; without poppler-utils PDFs too.
 */
export interface DocumentTools {
  soffice: string | null;
  pdftotext: string | null;
  pdftoppm: string | null;
  /** The command prefix that runs a tool without a network (`unshare -n`), or [] for none. */
  isolate: string[];
  isolation: NetworkIsolation;
  /** Debian packages that would provide what is missing. */
  missing: string[];
}

async function onPath(name: string, envPath = process.env.PATH ?? ''): Promise<string | null> {
  const candidates = name.includes('/') ? [name] : envPath.split(':').filter(Boolean).map((dir) => path.join(dir, name));
  for (const candidate of candidates) {
    try {
      await fsp.access(candidate, constants.X_OK);
      return path.resolve(candidate);
    } catch {
      // not here
    }
  }
  return null;
}

/** Whether `unshare` with these flags can run a program here (root: -n; unprivileged user namespaces: -rn). */
async function unshareWorks(unshare: string, flags: string): Promise<boolean> {
  const truth = await onPath('true');
  if (!truth) return false;
  try {
    const run = await runTool(unshare, [flags, truth], { deadline: Date.now() + 5000, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
    return run.code === 0;
  } catch {
    return false;
  }
}

/** Finds the tools (`soffice`: the SOFFICE_PATH setting, a name on PATH or a path). */
export async function findTools(soffice = 'soffice'): Promise<DocumentTools> {
  const [office, pdftotext, pdftoppm, unshare] = await Promise.all([onPath(soffice), onPath('pdftotext'), onPath('pdftoppm'), onPath('unshare')]);
  let isolate: string[] = [];
  let isolation: NetworkIsolation = 'no-proxy';
  if (unshare && (await unshareWorks(unshare, '-n'))) {
    isolate = [unshare, '-n'];
    isolation = 'netns';
  } else if (unshare && (await unshareWorks(unshare, '-rn'))) {
    isolate = [unshare, '-rn'];
    isolation = 'user-netns';
  }
  const missing: string[] = [];
  if (!office) missing.push('libreoffice-writer-nogui', 'libreoffice-calc-nogui', 'libreoffice-impress-nogui');
  if (!pdftotext || !pdftoppm) missing.push('poppler-utils');
  return { soffice: office, pdftotext, pdftoppm, isolate, isolation, missing };
}

/** Which job kinds these tools can do (common/files/documents.ts). */
export function kindsDoable(tools: DocumentTools): string[] {
  const kinds = ['text'];
  if (tools.pdftotext) kinds.push('pdf');
  if (tools.pdftotext && tools.soffice) kinds.push('office');
  return kinds;
}

/**
 * The environment of a converter run: its own HOME and TMPDIR, a UTF-8 locale, PATH — and nothing else
 * of the server's (no proxy settings, no credentials).
 */
export function toolEnv(workDir: string): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: workDir, TMPDIR: workDir, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', SAL_USE_VCLPLUGIN: 'svp' };
}
