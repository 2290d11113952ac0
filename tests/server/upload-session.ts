/** Opening an upload session in tests that expect it to succeed (kept apart: helpers.ts also runs outside vitest). */
import { expect } from 'vitest';
import type { ChunkExistResponse } from '../../common/transfer/protocol';
import { type Client, postChunkExist } from './helpers';

/** Opens or resumes the upload of `content` at the root with `chunkSize`; expects 200 and returns the session. */
export async function openUploadSession(client: Client, content: Buffer, name: string, chunkSize: number): Promise<ChunkExistResponse> {
  const res = await postChunkExist(client, content, name, { chunkSize });
  expect(res.status).toBe(200);
  return res.body.data;
}
