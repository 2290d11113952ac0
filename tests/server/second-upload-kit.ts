import { createHmac } from 'node:crypto';
import { expect } from 'vitest';
import { API } from '../../common/api/paths';
import type { SecondUploadChallenge, SecondUploadResponse } from '../../common/transfer/second-upload';
import { describeFile, type Client } from './helpers';

/** The correct proof of possession: HMAC with the challenge's nonce over the challenged ranges of `content`. */
export function proofFor(challenge: SecondUploadChallenge, content: Buffer): string {
  const message = Buffer.concat(challenge.ranges.map((r) => content.subarray(r.start, r.end)));
  return createHmac('sha256', Buffer.from(challenge.nonce, 'hex')).update(message).digest('hex');
}

export interface ClaimOptions {
  parentId?: string | null;
  /** Answers the challenge; default: the correct proof over `content`. */
  prove?: (c: SecondUploadChallenge) => { challengeId: string; hmac: string };
  onConflict?: string;
  /** More request fields (ifMatch...). */
  extra?: Record<string, unknown>;
  /** The chunk size the fingerprint is computed with (the server's; default TEST_CHUNK_SIZE). */
  chunkSize?: number;
}

/** A second upload over the real API: the claim, its challenge, then the answer with the proof. */
export async function secondUpload(client: Client, content: Buffer, name: string, opts: ClaimOptions = {}) {
  const { fingerprint } = describeFile(content, opts.chunkSize);
  const base = { fingerprint, size: content.length, name, parentId: opts.parentId ?? null, category: 1, onConflict: opts.onConflict, ...opts.extra };
  const first = await client.post<{ data: SecondUploadResponse }>(API.secondUpload, base);
  expect(first.status).toBe(200);
  const challenge = first.body.data as SecondUploadChallenge;
  expect(challenge.status).toBe('challenge');
  const proof = opts.prove ? opts.prove(challenge) : { challengeId: challenge.challengeId, hmac: proofFor(challenge, content) };
  const second = await client.post<{ data: SecondUploadResponse; errorCode?: string }>(API.secondUpload, { ...base, proof });
  return { challenge, answer: second, base };
}
