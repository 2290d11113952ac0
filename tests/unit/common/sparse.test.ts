/** common/files/sparse.ts: which parts of a write are written, which stay holes. */
import { describe, expect, it } from 'vitest';
import { dataRuns, SPARSE_BLOCK } from '../../../common/files/sparse';

const B = SPARSE_BLOCK;
const zeroAt = (bytes: Uint8Array) => (start: number, end: number) => bytes.subarray(start, end).every((b) => b === 0);

describe('dataRuns', () => {
  it('leaves whole aligned zero blocks out and writes the rest in as few runs as possible', () => {
    const bytes = new Uint8Array(4 * B);
    bytes[10] = 1; // block 0
    bytes[3 * B + 5] = 1; // block 3
    expect(dataRuns(0, bytes.length, zeroAt(bytes))).toEqual({ runs: [[0, B], [3 * B, 4 * B]], holeAtEnd: false });
  });

  it('writes zero blocks that do not fall on the file\'s block boundaries, and says when the end is a hole', () => {
    const bytes = new Uint8Array(3 * B);
    // Written at offset 100: only the blocks wholly inside the bytes at file offsets B and 2B can be holes.
    expect(dataRuns(100, bytes.length, zeroAt(bytes))).toEqual({ runs: [[0, B - 100], [3 * B - 100, 3 * B]], holeAtEnd: false });
    expect(dataRuns(0, bytes.length, zeroAt(bytes))).toEqual({ runs: [], holeAtEnd: true });
    expect(dataRuns(0, 10, zeroAt(new Uint8Array(10)))).toEqual({ runs: [[0, 10]], holeAtEnd: false });
  });
});
