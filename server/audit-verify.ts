import path from 'node:path';
import { parseArgs } from 'node:util';
import { openReadOnlyDatabase } from './db/database';
import { ActionLogRepository } from './repositories/action-log-repository';
import { verifyChains } from './services/action-log/verify';
import { loadChainKey } from './storage/chain-key';

/**
 * `npm run audit:verify -- --data-dir D`: checks every tenant's action log chain in D's database with
 * the chain key (AUDIT_CHAIN_KEY, else D/audit-chain.key) and prints, per chain, the rows checked
 * and the first broken link. Exit 0 when every chain holds, 1 when one is broken, 2 when it could
 * not check (no database, no key). Reads only; may run beside a live server.
 */
async function main(): Promise<number> {
  const { values } = parseArgs({ options: { 'data-dir': { type: 'string' }, json: { type: 'boolean' } } });
  const dataDir = path.resolve(values['data-dir'] ?? process.env.DATA_DIR ?? './data');
  let key: Buffer;
  try {
    key = await loadChainKey(dataDir, process.env.AUDIT_CHAIN_KEY || undefined, false);
  } catch (err) {
    console.error(`audit:verify: no chain key (${(err as Error).message}); set AUDIT_CHAIN_KEY or point --data-dir at the server's data directory`);
    return 2;
  }
  let db;
  try {
    db = openReadOnlyDatabase(dataDir);
  } catch (err) {
    console.error(`audit:verify: cannot open ${path.join(dataDir, 'drive.sqlite')}: ${(err as Error).message}`);
    return 2;
  }
  try {
    const reports = await verifyChains(new ActionLogRepository(db, key), key);
    const code = reports.some((r) => r.broken) ? 1 : 0;
    if (values.json) {
      console.log(JSON.stringify(reports));
      return code;
    }
    for (const r of reports) {
      const name = r.tenantId === '' ? '(platform)' : r.tenantId;
      if (r.broken) console.log(`BROKEN  tenant ${name}: first broken link at row ${r.broken.seq} (${r.broken.reason}): ${r.broken.message}`);
      else console.log(`ok      tenant ${name}: ${r.rows} rows${r.firstSeq !== null ? ` (${r.firstSeq}–${r.lastSeq})` : ''}, head ${r.headHash.slice(0, 16)}…`);
    }
    if (reports.length === 0) console.log('no action log chains yet');
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
