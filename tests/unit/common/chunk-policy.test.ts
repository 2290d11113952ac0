import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  chunkSizeForFile,
  chunkSizeProblem,
  DEFAULT_CHUNK_SIZE,
  digestsStillValid,
  fingerprintUnaffected,
  MAX_CHUNK_SIZE,
  MIN_CHUNK_SIZE,
} from '../../../common/transfer/chunk-policy';
import { fingerprintOf } from '../../../server/storage/content-digest';

describe('chunk policy', () => {
  it('takes whole sizes within the bounds, and refuses others with the bounds in the message', () => {
    for (const ok of [MIN_CHUNK_SIZE, DEFAULT_CHUNK_SIZE, MAX_CHUNK_SIZE, MIN_CHUNK_SIZE + 1]) expect(chunkSizeProblem(ok)).toBeNull();
    for (const bad of [0, MIN_CHUNK_SIZE - 1, MAX_CHUNK_SIZE + 1, 1.5 * 1024 * 1024 + 0.5, Number.NaN]) {
      expect(chunkSizeProblem(bad)).toMatch(/262144 \(256 KiB\) to 67108864 \(64 MiB\)/);
    }
  });

  it('cuts a file at the announced size, the default when the announcement is out of bounds', () => {
    expect(chunkSizeForFile(4 * 1024 * 1024)).toBe(4 * 1024 * 1024);
    expect(chunkSizeForFile(1024)).toBe(DEFAULT_CHUNK_SIZE);
    expect(chunkSizeForFile(MAX_CHUNK_SIZE * 2)).toBe(DEFAULT_CHUNK_SIZE);
    expect(digestsStillValid(4 * 1024 * 1024, 4 * 1024 * 1024)).toBe(true);
    expect(digestsStillValid(4 * 1024 * 1024, 8 * 1024 * 1024)).toBe(false);
    expect(digestsStillValid(DEFAULT_CHUNK_SIZE, 1024)).toBe(true);
  });

  it('says exactly when a fingerprint does not depend on the chunk size', () => {
    const a = MIN_CHUNK_SIZE;
    const b = 3 * MIN_CHUNK_SIZE;
    for (const size of [0, 1, a - 1, a, a + 1, b, b + 1, 2 * b + 7]) {
      const content = randomBytes(size);
      expect(fingerprintUnaffected(size, a, b), `size ${size}`).toBe(fingerprintOf(content, a) === fingerprintOf(content, b));
      expect(fingerprintUnaffected(size, a, a)).toBe(true);
    }
  });
});
