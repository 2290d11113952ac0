/**
 * Everything `createEngine` needs to run under Node (replay CLI, integration tests, benchmarks). The
 * parts product code shares (the disk file source, the cookie jar, the captcha login, the hash pool
 * and chunk transport) live in workers/node/; the queue on fake-indexeddb (a private IDBFactory per
 * engine, so engines never share a queue) is the tests' own.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { openTransferDb, type TransferDb } from '../../workers/queue/db';

export { openFileSource } from '../../workers/node/file-source';
export { engineConfigFor } from '../../workers/node/engine-config';
export { createCookieFetch, sessionCookieAfter, type CookieFetch, type FetchCounters } from '../../workers/node/cookie-fetch';
export { captchaOutboxOf, loginWithOutbox, type LoginOptions } from '../../workers/node/login';

/** A fresh, empty queue database in memory. */
export function openNodeTransferDb(name = 'transfer-engine-node'): TransferDb {
  return openTransferDb(name, { indexedDB: new IDBFactory(), IDBKeyRange });
}
