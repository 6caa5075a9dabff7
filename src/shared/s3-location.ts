/** Where off-site backups go: a bucket and a folder in it on an S3-compatible store, with the keys to it. */
export interface S3Location {
  /** The store's address (path-style requests); absent: Amazon S3 itself. */
  endpoint?: string;
  bucket: string;
  /** The folder in the bucket, "" or ending in "/". */
  prefix: string;
  region?: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The folder's address without the keys (`ENDPOINT/BUCKET/FOLDER/`, or `s3://BUCKET/FOLDER/` on Amazon S3), for logs and the Backups card. */
  shown: string;
}

type Env = Record<string, string | undefined>;

/**
 * `BACKUP_S3_URL`: `https://s3.example.com/BUCKET/FOLDER` (the store's address, then the bucket and folder), or
 * `s3://BUCKET/FOLDER` with the address in `BACKUP_S3_ENDPOINT` (Amazon S3 without one). The keys come from
 * `BACKUP_S3_ACCESS_KEY_ID`/`BACKUP_S3_SECRET_ACCESS_KEY`, else `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`, else
 * the URL's user and password; the region from `BACKUP_S3_REGION` or `AWS_REGION` (optional).
 * Undefined when `BACKUP_S3_URL` is not set. Errors never repeat a key.
 */
export function parseS3Location(env: Env): S3Location | undefined {
  const value = env.BACKUP_S3_URL?.trim();
  if (!value) return undefined;
  const url = URL.parse(value);
  if (!url || !["s3:", "http:", "https:"].includes(url.protocol))
    throw new Error(
      "BACKUP_S3_URL must be https://HOST/BUCKET/FOLDER or s3://BUCKET/FOLDER (with BACKUP_S3_ENDPOINT=https://HOST)",
    );
  const path = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
  const [bucket, ...folder] = url.protocol === "s3:" ? [decodeURIComponent(url.hostname), ...path] : path;
  const endpoint = url.protocol === "s3:" ? parseEndpoint(env.BACKUP_S3_ENDPOINT) : url.origin;
  const prefix = folder.length ? `${folder.join("/")}/` : "";
  const shown = `${endpoint ?? "s3:/"}/${bucket ?? ""}/${prefix}`;
  if (!bucket) throw new Error(`BACKUP_S3_URL names no bucket: ${shown}`);
  const accessKeyId =
    env.BACKUP_S3_ACCESS_KEY_ID || env.AWS_ACCESS_KEY_ID || decodeURIComponent(url.username) || undefined;
  const secretAccessKey =
    env.BACKUP_S3_SECRET_ACCESS_KEY || env.AWS_SECRET_ACCESS_KEY || decodeURIComponent(url.password) || undefined;
  if (!accessKeyId || !secretAccessKey)
    throw new Error(
      `BACKUP_S3_URL (${shown}) needs keys: set BACKUP_S3_ACCESS_KEY_ID and BACKUP_S3_SECRET_ACCESS_KEY (or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)`,
    );
  const region = env.BACKUP_S3_REGION || env.AWS_REGION || undefined;
  return { endpoint, bucket, prefix, region, accessKeyId, secretAccessKey, shown };
}

/** `BACKUP_S3_ENDPOINT`: the store's address (its origin; anything else in it is dropped, keys included). */
function parseEndpoint(value: string | undefined): string | undefined {
  if (!value?.trim()) return undefined;
  const url = URL.parse(value.trim());
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:"))
    throw new Error("BACKUP_S3_ENDPOINT must be the store's address, like https://s3.example.com");
  return url.origin;
}
