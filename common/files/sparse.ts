/**
 * Sparse files (issue 42): a file with runs of zeros (a 1 GiB virtual-disk image, a database file)
 * keeps them as holes where the file system allows, on the server's chunk store and on the desktop
 * sync's downloads: an all-zero block that falls on a block boundary of the file is not written, and
 * the file is extended to its length afterwards (ftruncate), which leaves a hole. Reading a hole
 * gives zeros, so the bytes are the same either way; a file system without holes simply allocates them.
 */

/** The file system block a hole is made of (ext4, APFS, NTFS: 4 KiB). */
export const SPARSE_BLOCK = 4096;

/**
 * The parts of `length` bytes about to be written at file offset `position` that must be written:
 * [start, end) ranges within the bytes, in order. A whole block-aligned block for which `isZero` says
 * yes is left out. `holeAtEnd`: the last block was left out, so the file must be extended to
 * `position + length` by its length, not by a write.
 */
export function dataRuns(position: number, length: number, isZero: (start: number, end: number) => boolean): { runs: Array<[number, number]>; holeAtEnd: boolean } {
  const runs: Array<[number, number]> = [];
  let runStart = -1;
  let holeAtEnd = false;
  for (let i = 0; i < length; ) {
    const end = Math.min(length, i + SPARSE_BLOCK - ((position + i) % SPARSE_BLOCK));
    const hole = end - i === SPARSE_BLOCK && isZero(i, end);
    if (hole && runStart >= 0) {
      runs.push([runStart, i]);
      runStart = -1;
    } else if (!hole && runStart < 0) {
      runStart = i;
    }
    holeAtEnd = hole;
    i = end;
  }
  if (runStart >= 0) runs.push([runStart, length]);
  return { runs, holeAtEnd };
}
