/**
 * Which blob store the tests' servers use, and each test server's bucket.
 *
 * `DRIVE_TEST_STORE=s3` runs tests against a real S3 server: the vitest global setup
 * (tests/support/radosgw-global-setup.ts) starts one throwaway Ceph radosgw for the run, and every
 * test server's data directory gets its own bucket (so one server's sweeper never sees another's
 * objects, and a server restarted on the same directory finds its objects again). Unset: the local
 * disk under DATA_DIR, as in production's default. A gateway given in DRIVE_TEST_S3_ENDPOINT (with
 * AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY) is used as is.
 */
import { createHash } from 'node:crypto';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { blobStoreUrl, RADOSGW_REGION, s3ClientFor, type RadosgwState } from './radosgw';

export type TestStore = 'disk' | 's3';

/** Set by the global setup: http://127.0.0.1:PORT of the run's radosgw. */
export const S3_ENDPOINT_ENV = 'DRIVE_TEST_S3_ENDPOINT';
export const S3_REGION_ENV = 'DRIVE_TEST_S3_REGION';

export const testStore = (): TestStore => (/^s3$/i.test(process.env.DRIVE_TEST_STORE ?? '') ? 's3' : 'disk');
export const onS3 = (): boolean => testStore() === 's3';

/** The run's S3 server, from the environment the global setup (or the caller) set. */
export function testS3(): Pick<RadosgwState, 'endpoint' | 'region' | 'accessKeyId' | 'secretAccessKey'> {
  const endpoint = process.env[S3_ENDPOINT_ENV];
  const accessKeyId = process.env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = process.env.AWS_SECRET_ACCESS_KEY;
  if (!endpoint || !accessKeyId || !secretAccessKey) {
    throw new Error(`DRIVE_TEST_STORE=s3 but ${S3_ENDPOINT_ENV} or the AWS credentials are unset: run through vitest (its global setup starts radosgw)`);
  }
  return { endpoint, region: process.env[S3_REGION_ENV] ?? RADOSGW_REGION, accessKeyId, secretAccessKey };
}

/** The bucket of a data directory (stable, so a restart on the same directory finds it; S3's naming rules). */
export const bucketNameOf = (dataDir: string): string => `t-${createHash('sha256').update(dataDir).digest('hex').slice(0, 24)}`;

const made = new Set<string>();

/**
 * The variables a test server on `dataDir` needs for its blob store: none on disk; on S3, BLOB_STORE
 * naming the data directory's bucket (created the first time) and the credentials.
 */
export async function testStoreEnv(dataDir: string): Promise<Record<string, string>> {
  if (!onS3()) return {};
  const s3 = testS3();
  const bucket = bucketNameOf(dataDir);
  if (!made.has(bucket)) {
    const client = s3ClientFor(s3);
    try {
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
    } catch (error) {
      // Made by an earlier start on the same directory (or another worker): it is ours either way.
      if ((error as { name?: string }).name !== 'BucketAlreadyOwnedByYou') throw error;
    } finally {
      client.destroy();
    }
    made.add(bucket);
  }
  return { BLOB_STORE: blobStoreUrl(bucket, s3.endpoint, s3.region), AWS_ACCESS_KEY_ID: s3.accessKeyId, AWS_SECRET_ACCESS_KEY: s3.secretAccessKey };
}
