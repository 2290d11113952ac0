import type { KeyObject } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openReadOnlyDatabase } from './db/database';
import { ActionLogRepository } from './repositories/action-log-repository';
import { keyIdOf, parseCheckpointFile, parsePublicKey } from './services/action-log/checkpoint';
import { verifyChains } from './services/action-log/verify';
import { checkpointHolds, verifyCheckpoints } from './services/action-log/verify-checkpoints';
import { loadChainKey } from './storage/chain-key';
import { checkpointPublicKeyFile, loadCheckpointSigner } from './storage/checkpoint-key';

/**
 * `npm run audit:verify -- --data-dir D [--checkpoint FILE]… [--public-key PEM]…`: checks every
 * tenant's action log chain in D's database (or DB_URL's, as the server) with the chain key (AUDIT_CHAIN_KEY, else
 * D/audit-chain.key) and prints, per chain, the rows checked and the first broken link (the head's
 * MAC included). Each checkpoint file (one checkpoint, an array, or one per line: what 操作日志's
 * download and AUDIT_CHECKPOINT_DIR hold) is then checked — signature by a trusted key (D's
 * checkpoint key, or --public-key) — and held against its chain: rows cut off after it are named.
 * Exit 0 when every chain and checkpoint holds, 1 when one does not, 2 when it could not check.
 * Reads only; may run beside a live server.
 */
async function trustedKeys(dataDir: string, files: readonly string[]): Promise<Map<string, KeyObject>> {
  const keys: KeyObject[] = [];
  try {
    keys.push((await loadCheckpointSigner(dataDir, false)).publicKey);
  } catch {
    // no private key here (a copy of the database without it): the public key file, if any
    const pub = await fsp.readFile(checkpointPublicKeyFile(dataDir), 'utf8').catch(() => null);
    if (pub !== null) keys.push(parsePublicKey(pub));
  }
  for (const file of files) keys.push(parsePublicKey(await fsp.readFile(file, 'utf8')));
  return new Map(keys.map((k) => [keyIdOf(k), k]));
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      json: { type: 'boolean' },
      checkpoint: { type: 'string', multiple: true },
      'public-key': { type: 'string', multiple: true },
    },
  });
  const dataDir = path.resolve(values['data-dir'] ?? process.env.DATA_DIR ?? './data');
  let key: Buffer;
  try {
    key = await loadChainKey(dataDir, process.env.AUDIT_CHAIN_KEY || undefined, false);
  } catch (err) {
    console.error(`audit:verify: no chain key (${(err as Error).message}); set AUDIT_CHAIN_KEY or point --data-dir at the server's data directory`);
    return 2;
  }
  const checkpointFiles = values.checkpoint ?? [];
  const items: Array<{ source: string; value: unknown }> = [];
  let trusted = new Map<string, KeyObject>();
  try {
    for (const file of checkpointFiles) {
      parseCheckpointFile(await fsp.readFile(file, 'utf8')).forEach((value, i) => items.push({ source: `${file}#${i + 1}`, value }));
    }
    if (checkpointFiles.length > 0) trusted = await trustedKeys(dataDir, values['public-key'] ?? []);
  } catch (err) {
    console.error(`audit:verify: cannot read a checkpoint or key file: ${(err as Error).message}`);
    return 2;
  }
  if (checkpointFiles.length > 0 && trusted.size === 0) {
    console.error(`audit:verify: no checkpoint key to check signatures with (${path.join(dataDir, 'audit-checkpoint.key')} or .pub, or --public-key)`);
    return 2;
  }
  let db;
  try {
    db = openReadOnlyDatabase(dataDir, process.env.DB_URL || undefined);
  } catch (err) {
    console.error(`audit:verify: cannot open ${process.env.DB_URL ? 'DB_URL' : path.join(dataDir, 'drive.sqlite')}: ${(err as Error).message}`);
    return 2;
  }
  try {
    const repo = new ActionLogRepository(db, key);
    const reports = await verifyChains(repo, key);
    const checkpoints = await verifyCheckpoints(repo, reports, items, trusted);
    const code = reports.some((r) => r.broken) || checkpoints.some((c) => !checkpointHolds(c)) ? 1 : 0;
    if (values.json) {
      // Without checkpoints the array of chain reports, as before.
      console.log(JSON.stringify(checkpointFiles.length > 0 ? { chains: reports, checkpoints } : reports));
      return code;
    }
    for (const r of reports) {
      const name = r.tenantId === '' ? '(platform)' : r.tenantId;
      if (r.broken) console.log(`BROKEN  tenant ${name}: first broken link at row ${r.broken.seq} (${r.broken.reason}): ${r.broken.message}`);
      else console.log(`ok      tenant ${name}: ${r.rows} rows${r.firstSeq !== null ? ` (${r.firstSeq}–${r.lastSeq})` : ''}, head ${r.headHash.slice(0, 16)}…`);
    }
    if (reports.length === 0) console.log('no action log chains yet');
    for (const c of checkpoints) {
      const name = c.checkpoint ? (c.checkpoint.tenantId === '' ? '(platform)' : c.checkpoint.tenantId) : '?';
      console.log(`${checkpointHolds(c) ? 'ok    ' : 'BROKEN'}  checkpoint ${c.source} (${c.status}) tenant ${name}: ${c.message}`);
    }
    return code;
  } finally {
    await db.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('audit:verify failed:', err);
    process.exit(2);
  },
);
