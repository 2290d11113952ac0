/**
 * BLOB_STORE=s3://bucket[/prefix]?endpoint=…&region=…[&timeoutMs=…][&pathStyle=0]: where an object
 * store keeps the bytes (docs/object-store.md). Credentials come from the usual AWS variables
 * (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, or a profile): never in the URL.
 */
export interface S3Location {
  bucket: string;
  /** Key prefix every object of this server starts with ('' or ending in '/'). */
  prefix: string;
  /** http(s)://host:port of an S3-compatible server; unset = AWS's own endpoint for the region. */
  endpoint: string | undefined;
  region: string;
  /** A request that sends or receives nothing for this long fails as "store unavailable". */
  timeoutMs: number;
  /** Set by code only (a test's own gateway), never from the URL; unset: the SDK's usual chain (AWS_* variables, profile). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Path-style addressing (host/bucket/key): S3-compatible servers on an address, as radosgw. Default on with an endpoint. */
  pathStyle: boolean;
}

export const DEFAULT_STORE_TIMEOUT_MS = 20_000;

/** Parses BLOB_STORE; throws with what is wrong (the server refuses to start on a bad value). */
export function parseS3Location(value: string): S3Location {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`BLOB_STORE must be s3://bucket?endpoint=…&region=…, got '${value}'`);
  }
  if (url.protocol !== 's3:') throw new Error(`BLOB_STORE: only s3:// is supported, got '${url.protocol}'`);
  if (url.username || url.password) throw new Error('BLOB_STORE must not carry credentials: use AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY');
  const bucket = url.hostname;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new Error(`BLOB_STORE: '${bucket}' is not an S3 bucket name (3-63 lowercase letters, digits, dots, hyphens)`);
  const path = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');
  if (path && !/^[A-Za-z0-9._\-/]+$/.test(path)) throw new Error(`BLOB_STORE: the key prefix '${path}' may hold only letters, digits, '.', '_', '-' and '/'`);
  const known = new Set(['endpoint', 'region', 'timeoutMs', 'pathStyle']);
  for (const name of url.searchParams.keys()) if (!known.has(name)) throw new Error(`BLOB_STORE: unknown parameter '${name}' (known: ${[...known].join(', ')})`);
  const endpoint = url.searchParams.get('endpoint') || undefined;
  if (endpoint && !/^https?:\/\/[^/?#]+\/?$/.test(endpoint)) throw new Error(`BLOB_STORE: endpoint must be http(s)://host[:port], got '${endpoint}'`);
  const region = url.searchParams.get('region') || 'us-east-1';
  const timeoutText = url.searchParams.get('timeoutMs');
  const timeoutMs = timeoutText === null ? DEFAULT_STORE_TIMEOUT_MS : Number(timeoutText);
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 100) throw new Error(`BLOB_STORE: timeoutMs must be a whole number of milliseconds ≥ 100, got '${timeoutText}'`);
  const pathStyleText = url.searchParams.get('pathStyle');
  return {
    bucket,
    prefix: path ? `${path}/` : '',
    endpoint: endpoint?.replace(/\/$/, ''),
    region,
    timeoutMs,
    pathStyle: pathStyleText === null ? endpoint !== undefined : pathStyleText !== '0',
  };
}
