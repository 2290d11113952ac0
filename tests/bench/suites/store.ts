/**
 * The blob store side by side (issue 37): the same phases on the local disk and on a real S3 server
 * (a one-node Ceph radosgw started for the run, its OSD on bluestore in a sparse file:
 * tests/support/radosgw.ts), in the same run, each on a fresh server child (tests/bench/lib/store-phases.ts):
 *  - a BENCH_STORE_BYTES (1 GiB) generated file uploaded by the engine under Node, enqueue → done:
 *    `storeUploadRatio` = object store's time ÷ disk's (how many times slower);
 *  - its merge request (`storeMergeMs…`) beside the merge of a 64 MiB file: the merge must not grow
 *    with the file beyond the store's own copy cost;
 *  - the whole file downloaded, and 16 ranged GETs of 1 MiB spread over it (median);
 *  - a ZIP of BENCH_STORE_SMALL_FILES (1,000) files of 4 KiB uploaded through the engine's batches;
 *  - the server's resident memory once started and its peak over the phases (sampled; goal ≤ 200 MB
 *    whatever the file size), each phase's peak and what it was made of (V8 heap, external:
 *    tests/bench/lib/server-memory.ts) and its CPU time, and the growth over the idle server (peak −
 *    started). The server runs as `npm start` runs it (tests/support/npm-start-args.ts: the prebuilt
 *    bundle and the start script's node flags, `storeServerCommand`); `storePeakGoalMet` says whether
 *    both stores stayed within the goal.
 * Every transfer is checked byte-exact.
 */
import { randomBytes } from 'node:crypto';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeGeneratedFile } from '../../support/drive-server';
import { startRadosgw, type Radosgw } from '../../support/radosgw';
import { megabytesPerSecond, MIB, type BenchModule, type BenchRow } from '../lib/report';
import { npmStartNodeArgs } from '../../support/npm-start-args';
import { forcedGcMs } from '../lib/server-memory';
import { runStorePhases, type StoreFigures } from '../lib/store-phases';
import { GiB, round1, round3 } from '../lib/transfer-context';

const SIZE = Number(process.env.BENCH_STORE_BYTES ?? GiB);
const SMALL_SIZE = 64 * MIB;
const SMALL_FILES = Number(process.env.BENCH_STORE_SMALL_FILES ?? 1000);
const PEAK_GOAL_MB = 200;

/** `UploadBig` for the phase 'upload big': a JSON key part. */
const phaseKey = (phase: string): string => phase.replace(/(^|\s)(\w)/g, (_, _s: string, c: string) => c.toUpperCase()).replace(/\s/g, '');

/** Each phase's peak RSS, and V8 heap used / external at it, as flat JSON keys (storeMemDiskUpload1GiBMB…). */
function memoryMetrics(store: 'Disk' | 'S3', f: StoreFigures): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of f.memory) {
    const key = `storeMem${store}${phaseKey(p.phase)}`;
    out[`${key}MB`] = round1(p.peakMB);
    if (p.heapUsedMB !== undefined) out[`${key}HeapMB`] = round1(p.heapUsedMB);
    if (p.externalMB !== undefined) out[`${key}ExternalMB`] = round1(p.externalMB);
    out[`${key}CpuS`] = round1(p.cpuS);
  }
  return out;
}

/** One line per store: the phases' peaks (RSS, and heap / external at it). */
function memoryRow(label: string, f: StoreFigures): BenchRow {
  const phases = f.memory.map((p) => {
    const parts = [...(p.heapUsedMB === undefined ? [] : [`heap ${p.heapUsedMB.toFixed(0)}`, `ext ${p.externalMB!.toFixed(0)}`]), `cpu ${p.cpuS.toFixed(1)} s`];
    return `${p.phase} ${p.peakMB.toFixed(0)} (${parts.join(', ')})`;
  });
  return { label: `${label} RSS MB by phase: ${phases.join(' · ')}`, cells: {} };
}

function row(label: string, f: StoreFigures): BenchRow {
  return {
    label,
    cells: {
      'upload s': (f.uploadMs / 1000).toFixed(1),
      'upload MB/s': megabytesPerSecond(SIZE, f.uploadMs).toFixed(0),
      'merge ms': f.mergeMs.toFixed(0),
      [`merge ${SMALL_SIZE / MIB} MiB ms`]: f.smallMergeMs.toFixed(0),
      'download MB/s': megabytesPerSecond(SIZE, f.downloadMs).toFixed(0),
      'range ms': f.rangeMs.toFixed(1),
      [`zip ${SMALL_FILES} s`]: (f.zipMs / 1000).toFixed(2),
      'RSS MB': `${f.baselineServerMB.toFixed(0)} → ${f.peakServerMB.toFixed(0)}`,
    },
  };
}

export const storeBenchmark: BenchModule = {
  name: 'store',
  columns: ['store', 'upload s', 'upload MB/s', 'merge ms', `merge ${SMALL_SIZE / MIB} MiB ms`, 'download MB/s', 'range ms', `zip ${SMALL_FILES} s`, 'RSS MB'],
  async run() {
    const dir = await fsp.mkdtemp(path.join(process.env.BENCH_TMPDIR ?? os.tmpdir(), 'drive-bench-store-'));
    let gateway: Radosgw | undefined;
    try {
      const bigFile = path.join(dir, 'big.bin');
      const smallFile = path.join(dir, 'small.bin');
      const smallFilesDir = path.join(dir, 'small-files');
      await fsp.mkdir(smallFilesDir);
      for (let i = 0; i < SMALL_FILES; i++) await fsp.writeFile(path.join(smallFilesDir, `f${String(i).padStart(4, '0')}.txt`), randomBytes(4096));
      const common = {
        big: { file: bigFile, sha256: await writeGeneratedFile(bigFile, SIZE), size: SIZE },
        small: { file: smallFile, sha256: await writeGeneratedFile(smallFile, SMALL_SIZE), size: SMALL_SIZE },
        smallFilesDir,
        smallFileCount: SMALL_FILES,
      };
      const started = performance.now();
      gateway = await startRadosgw({ backend: 'bluestore', storeBytes: Math.max(16 * GiB, 4 * SIZE), dir: path.join(dir, 'radosgw') });
      const gatewayStartMs = performance.now() - started;
      await gateway.createBucket('bench');

      const disk = await runStorePhases({ ...common, label: 'disk', dataDir: path.join(dir, 'disk'), env: {} });
      const s3 = await runStorePhases({ ...common, label: 's3', dataDir: path.join(dir, 's3'), env: gateway.env('bench') });
      // A server that ignored BLOB_STORE would have measured the disk twice: the bytes must be in the bucket.
      const client = gateway.client();
      const listed = await client.send(new ListObjectsV2Command({ Bucket: 'bench', MaxKeys: 10 })).finally(() => client.destroy());
      if (!listed.KeyCount) throw new Error('the S3 phases left nothing in the bucket: the server did not store in BLOB_STORE');

      const peak = Math.max(disk.peakServerMB, s3.peakServerMB);
      const goalMet = peak <= PEAK_GOAL_MB;
      const startedToPeak = (f: StoreFigures) => `${f.baselineServerMB.toFixed(0)} → ${f.peakServerMB.toFixed(0)} MB`;
      return {
        rows: [
          row('disk (DATA_DIR)', disk),
          row('S3 (radosgw, bluestore)', s3),
          { label: `object store ÷ disk (storeUploadRatio); radosgw up in ${(gatewayStartMs / 1000).toFixed(1)} s`, cells: { 'upload s': (s3.uploadMs / disk.uploadMs).toFixed(2) } },
          {
            label: `server RSS started → peak: disk ${startedToPeak(disk)}, S3 ${startedToPeak(s3)}; goal ≤ ${PEAK_GOAL_MB} MB ${goalMet ? 'met' : 'NOT met'} (server: node ${npmStartNodeArgs().join(' ')})`,
            cells: {},
          },
          memoryRow('disk', disk),
          memoryRow('S3', s3),
        ],
        metrics: {
          storeBytes: SIZE,
          storeSmallFiles: SMALL_FILES,
          storeUploadRatio: round3(s3.uploadMs / disk.uploadMs),
          storeUploadMBpsDisk: round1(megabytesPerSecond(SIZE, disk.uploadMs)),
          storeUploadMBpsS3: round1(megabytesPerSecond(SIZE, s3.uploadMs)),
          storeMergeMsDisk: Math.round(disk.mergeMs),
          storeMergeMsS3: Math.round(s3.mergeMs),
          storeSmallMergeMsDisk: Math.round(disk.smallMergeMs),
          storeSmallMergeMsS3: Math.round(s3.smallMergeMs),
          storeDownloadMBpsDisk: round1(megabytesPerSecond(SIZE, disk.downloadMs)),
          storeDownloadMBpsS3: round1(megabytesPerSecond(SIZE, s3.downloadMs)),
          storeRangeMsDisk: round1(disk.rangeMs),
          storeRangeMsS3: round1(s3.rangeMs),
          storeZipMsDisk: Math.round(disk.zipMs),
          storeZipMsS3: Math.round(s3.zipMs),
          storePeakServerMBDisk: round1(disk.peakServerMB),
          storePeakServerMBS3: round1(s3.peakServerMB),
          storeBaselineServerMBDisk: round1(disk.baselineServerMB),
          storeBaselineServerMBS3: round1(s3.baselineServerMB),
          storePeakServerMB: round1(peak),
          storePeakGoalMB: PEAK_GOAL_MB,
          storePeakGoalMet: goalMet ? 'yes' : 'no',
          storeServerCommand: `node ${npmStartNodeArgs().join(' ')}`,
          storeGrowthServerMBDisk: round1(disk.peakServerMB - disk.baselineServerMB),
          storeGrowthServerMBS3: round1(s3.peakServerMB - s3.baselineServerMB),
          ...memoryMetrics('Disk', disk),
          ...memoryMetrics('S3', s3),
          storeGatewayStartMs: Math.round(gatewayStartMs),
          ...(forcedGcMs() > 0 ? { storeForcedGcMs: forcedGcMs() } : {}),
        },
      };
    } finally {
      await gateway?.stop();
      await fsp.rm(dir, { recursive: true, force: true });
    }
  },
};
