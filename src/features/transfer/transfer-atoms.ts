import { atom } from 'jotai';
import type { TransferSnapshot } from '../../../common/transfer/engine-api';

export const EMPTY_SNAPSHOT: TransferSnapshot = { items: [], totalBytes: 0, doneBytes: 0, speed: 0 };

/** The latest snapshot pushed by the engine. */
export const transferSnapshotAtom = atom<TransferSnapshot>(EMPTY_SNAPSHOT);
