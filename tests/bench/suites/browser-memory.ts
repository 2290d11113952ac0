/**
 * Memory of the browser engine while it uploads a large file (issue 18: engine memory in the tab ≤ 150 MB
 * for 4 GiB): `npm start`, Chromium logged in on 个人文件, ONE generated file of BENCH_BROWSER_MEM_MB
 * (default 4096) picked through 上传文件 and uploaded to 已完成, the RSS of Chromium's renderer processes
 * (the tab: page, engine worker and hash workers; /proc every 100 ms) sampled throughout.
 * browserPeakMemMB = peak − the RSS just before the pick (what the upload added, as the Node suite's
 * peakMemMB); the absolute peak and the rest of Chromium's peak (browser process, network and storage
 * services, which hold request bodies and IndexedDB) are reported beside it.
 * Separate from browser-upload because 4 GiB takes minutes at today's browser speed; the file needs
 * ~2.2× its size free (the file and the server's copy), both deleted afterwards.
 */
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeGeneratedFile } from '../../support/drive-server';
import { openBrowserDrive } from '../lib/browser-drive';
import { megabytesPerSecond, MIB, type BenchModule } from '../lib/report';
import { freeBytes, round1, settleBeforeTimedPhase } from '../lib/transfer-context';
import { timedBrowserUpload } from './browser-upload';

const SIZE = Math.round(Number(process.env.BENCH_BROWSER_MEM_MB ?? 4096) * MIB);

export const browserMemoryBenchmark: BenchModule = {
  name: 'browser-memory',
  columns: ['what', 'MiB'],
  async run() {
    const fileDir = await fsp.mkdtemp(path.join(process.env.BENCH_TMPDIR ?? os.tmpdir(), 'drive-bench-browser-memory-'));
    const free = await freeBytes(fileDir);
    if (free < 2.2 * SIZE) throw new Error(`browser-memory needs ~${((2.2 * SIZE) / 1024 ** 3).toFixed(1)} GiB free in ${fileDir}, only ${(free / 1024 ** 3).toFixed(1)} GiB`);
    const drive = await openBrowserDrive('browser-memory');
    try {
      const file = path.join(fileDir, `browser-memory-${Date.now()}.bin`);
      await writeGeneratedFile(file, SIZE);
      await settleBeforeTimedPhase();
      const r = await timedBrowserUpload(drive, file);
      await fsp.rm(file, { force: true });
      const peakMemMB = (r.rendererPeakBytes - r.baselineRendererBytes) / MIB;
      return {
        rows: [
          { label: 'renderer RSS before the pick (page logged in, engine idle)', cells: { MiB: (r.baselineRendererBytes / MIB).toFixed(1) } },
          { label: `renderer RSS peak while uploading ${SIZE / MIB} MiB`, cells: { MiB: (r.rendererPeakBytes / MIB).toFixed(1) } },
          { label: 'peak − before (browserPeakMemMB, goal ≤ 150 for 4 GiB)', cells: { MiB: peakMemMB.toFixed(1) } },
          { label: 'rest of Chromium, RSS peak (browser, network, storage, GPU…)', cells: { MiB: (r.othersPeakBytes / MIB).toFixed(1) } },
          { label: `upload time ${(r.ms / 1000).toFixed(1)} s → ${megabytesPerSecond(SIZE, r.ms).toFixed(0)} MB/s`, cells: { MiB: '' } },
        ],
        metrics: {
          browserPeakMemMB: round1(peakMemMB),
          browserPeakRendererRssMB: round1(r.rendererPeakBytes / MIB),
          browserBaselineRendererRssMB: round1(r.baselineRendererBytes / MIB),
          browserOthersPeakRssMB: round1(r.othersPeakBytes / MIB),
          browserMemoryFileBytes: SIZE,
        },
      };
    } finally {
      await drive.close();
      await fsp.rm(fileDir, { recursive: true, force: true });
    }
  },
};
