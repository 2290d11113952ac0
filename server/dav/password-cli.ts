import path from 'node:path';
import { parseArgs } from 'node:util';
import { configFromEnv } from '../config';
import { openDatabase } from '../db/database';
import { ActionLogRepository } from '../repositories/action-log-repository';
import { DevicePasswordRepository } from '../repositories/device-password-repository';
import { UserRepository } from '../repositories/user-repository';
import { ActionLogService } from '../services/action-log-service';
import { newActionContext, runInActionContext } from '../services/action-log/recorder';
import { DevicePasswordService } from '../services/device-password-service';
import { loadChainKey } from '../storage/chain-key';
import { loadNameRanks } from '../storage/name-rank-cache';

const USAGE = 'usage: npm run dav:password -- --data-dir D --user U --name N [--tenant TENANT_ID]';

/**
 * `npm run dav:password -- --data-dir D --user U --name N [--tenant T]`: creates a 设备密码 for the
 * account U (of tenant T when several tenants have that account) in D's database — or DB_URL's, as the
 * server reads it — and prints the password alone on stdout, for scripts and tests (litmus, rclone,
 * cadaver). The same service as 账号安全 → 设备密码; recorded in the tenant's action log as done by
 * the system, naming the account. Exit 0 printed, 1 refused (unknown account, bad name, limit), 2 usage.
 * May run beside a live server.
 */
async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { 'data-dir': { type: 'string' }, user: { type: 'string' }, name: { type: 'string' }, tenant: { type: 'string' } },
  });
  if (!values.user || !values.name) {
    console.error(USAGE);
    return 2;
  }
  const dataDir = path.resolve(values['data-dir'] ?? process.env.DATA_DIR ?? './data');
  const config = configFromEnv({ ...process.env, DATA_DIR: dataDir });
  config.logger = false;
  await loadNameRanks(config.dataDir);
  const db = await openDatabase(config);
  try {
    const candidates = await new UserRepository(db).findLoginCandidates(values.user, values.tenant || undefined);
    if (candidates.length === 0) {
      console.error(`dav:password: no account '${values.user}'${values.tenant ? ` in tenant ${values.tenant}` : ''}`);
      return 1;
    }
    if (candidates.length > 1) {
      console.error(`dav:password: several tenants have '${values.user}': name one with --tenant (${candidates.map((c) => c.tenant_id).join(', ')})`);
      return 1;
    }
    const user = candidates[0]!;
    const service = new DevicePasswordService({
      repo: new DevicePasswordRepository(db),
      davEnabled: async () => true,
      publicBaseUrl: config.publicBaseUrl,
      onError: (err) => console.error(err),
    });
    const caller = { userId: user.id, tenantId: user.tenant_id, username: user.username, role: user.role, passwordChangeType: 0 as const, networkEnv: 'internal' as const };
    const ctx = newActionContext();
    const created = await new Promise<Awaited<ReturnType<DevicePasswordService['create']>>>((resolve, reject) => {
      runInActionContext(ctx, () => void service.create(caller, values.name!).then(resolve, reject));
    }).catch((err: unknown) => {
      console.error(`dav:password: ${(err as Error).message}`);
      return null;
    });
    if (!created) return 1;
    const chainKey = await loadChainKey(dataDir, config.auditChainKey, true);
    const log = new ActionLogService(new ActionLogRepository(db, chainKey), (err) => console.error(err));
    for (const entry of ctx.entries) {
      await log.appendSystem(user.tenant_id, entry.action, entry.targets ?? [], { account: user.username, via: 'npm run dav:password' });
    }
    await log.drain();
    console.log(created.password);
    return 0;
  } finally {
    await db.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`dav:password: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(2);
  },
);
