/**
 * Vitest global setup: with DRIVE_TEST_STORE=s3, starts one throwaway Ceph radosgw for the whole run
 * (tests/support/radosgw.ts) and hands its endpoint and credentials to the tests through the
 * environment (tests/support/test-store.ts gives each test server its bucket). Without it: nothing.
 * A gateway given in DRIVE_TEST_S3_ENDPOINT is used as is.
 */
import { startRadosgw } from './radosgw';
import { onS3, S3_ENDPOINT_ENV, S3_REGION_ENV } from './test-store';

export default async function setup(): Promise<(() => Promise<void>) | void> {
  if (!onS3() || process.env[S3_ENDPOINT_ENV]) return;
  const gateway = await startRadosgw();
  process.env[S3_ENDPOINT_ENV] = gateway.endpoint;
  process.env[S3_REGION_ENV] = gateway.region;
  process.env.AWS_ACCESS_KEY_ID = gateway.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = gateway.secretAccessKey;
  return () => gateway.stop();
}
