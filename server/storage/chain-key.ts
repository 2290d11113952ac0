import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { fsyncDir } from './durable-fs';

/** Where the action log's chain key lives when AUDIT_CHAIN_KEY is not set. */
export function chainKeyFile(dataDir: string): string {
  return path.join(dataDir, 'audit-chain.key');
}

function parseHexKey(hex: string, source: string): Buffer {
  const trimmed = hex.trim();
  if (!/^[0-9a-fA-F]{64,}$/.test(trimmed) || trimmed.length % 2 !== 0) {
    throw new Error(`${source} must be at least 32 bytes written as hex (64 or more hex digits)`);
  }
  return Buffer.from(trimmed, 'hex');
}

/**
 * The key of the action log's hash chain (HMAC-SHA-256). It is kept out of the database on purpose:
 * someone who can write the database but not read this key cannot rewrite the chain after editing a
 * row. `AUDIT_CHAIN_KEY` (hex) wins — several servers on one PostgreSQL database must share it —;
 * otherwise `DATA_DIR/audit-chain.key` is read, and created (owner-only) on first start.
 */
export async function loadChainKey(dataDir: string, fromEnv: string | undefined, create: boolean): Promise<Buffer> {
  if (fromEnv) return parseHexKey(fromEnv, 'AUDIT_CHAIN_KEY');
  const file = chainKeyFile(dataDir);
  try {
    return parseHexKey(await fsp.readFile(file, 'utf8'), file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || !create) throw err;
  }
  const key = randomBytes(32);
  const written = await createOwnerOnlyFile(file, `${key.toString('hex')}\n`);
  return parseHexKey(written, file);
}

/**
 * Creates `file` with `content`, readable by its owner only, unless it exists: the content that is
 * in the file afterwards is returned (of two processes starting at once, one file wins). Written
 * whole and fsynced before it appears (what is signed or hashed with a key is durable, so must the
 * key be); link() refuses an existing name.
 */
export async function createOwnerOnlyFile(file: string, content: string): Promise<string> {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await fsp.open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fsp.link(temp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return fsp.readFile(file, 'utf8');
  } finally {
    await fsp.rm(temp, { force: true });
  }
  await fsyncDir(path.dirname(file));
  return content;
}
