import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { keyIdOf, publicKeyBase64, type CheckpointSigner } from '../services/action-log/checkpoint';
import { createOwnerOnlyFile } from './chain-key';

/** The Ed25519 key that signs the action log's checkpoints (PKCS#8 PEM, owner-only), beside the chain key. */
export function checkpointKeyFile(dataDir: string): string {
  return path.join(dataDir, 'audit-checkpoint.key');
}

/** Its public half (SPKI PEM), for whoever checks checkpoints elsewhere. */
export function checkpointPublicKeyFile(dataDir: string): string {
  return path.join(dataDir, 'audit-checkpoint.pub');
}

/**
 * The checkpoint signing key of a data directory: read, or (create) made on first start. Like the
 * chain key it stays out of the database; unlike it, its public half may go anywhere: a checkpoint
 * is checked with the public key alone, so an auditor who can check one cannot forge one.
 * The public key is (re)written to audit-checkpoint.pub when missing.
 */
export async function loadCheckpointSigner(dataDir: string, create: boolean): Promise<CheckpointSigner> {
  const file = checkpointKeyFile(dataDir);
  let pem: string;
  try {
    pem = await fsp.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || !create) throw err;
    const { privateKey } = generateKeyPairSync('ed25519');
    pem = await createOwnerOnlyFile(file, privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
  }
  const privateKey = createPrivateKey(pem);
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error(`${file} is not an Ed25519 private key`);
  const publicKey = createPublicKey(privateKey);
  if (create) {
    await fsp
      .writeFile(checkpointPublicKeyFile(dataDir), publicKey.export({ type: 'spki', format: 'pem' }).toString(), { flag: 'wx', mode: 0o644 })
      .catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') throw err;
      });
  }
  return { privateKey, publicKey, publicKeyBase64: publicKeyBase64(publicKey), keyId: keyIdOf(publicKey) };
}
