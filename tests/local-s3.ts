import S3rver from "@20minutes/s3rver";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { S3Location } from "../src/shared/s3-location";

/** The keys the local store knows (s3rver's built-in account). */
export const LOCAL_S3_KEYS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

/**
 * A local S3-compatible store (s3rver, in this process) with one bucket, on a free port of 127.0.0.1, that can be
 * stopped and started again on the same port (the store "down" for a while).
 * s3rver signs a bucket-level request (a listing) for the path without its trailing slash while Bun's client, like
 * Amazon S3, signs the path as sent: it is run without checking signatures, and a wrong key is an unknown key id.
 */
export class LocalS3 {
  private server: S3rver | null = null;
  private readonly dir = mkdtempSync(join(tmpdir(), "zapdesk-s3-"));
  port = 0;

  constructor(readonly bucket = "backups") {}

  async start(): Promise<this> {
    this.server = new S3rver({
      address: "127.0.0.1",
      port: this.port,
      silent: true,
      directory: this.dir,
      allowMismatchedSignatures: true,
      configureBuckets: [{ name: this.bucket }],
    });
    this.port = (await this.server.run()).port;
    return this;
  }

  async stop() {
    await this.server?.close();
    this.server = null;
  }

  async remove() {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  get endpoint() {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The location of `prefix` in the bucket, as BACKUP_S3_URL and the keys would give it. */
  location(prefix: string, keys = LOCAL_S3_KEYS): S3Location {
    return {
      endpoint: this.endpoint,
      bucket: this.bucket,
      prefix,
      ...keys,
      shown: `${this.endpoint}/${this.bucket}/${prefix}`,
    };
  }

  /** A client of the bucket, to look at what is there. */
  client() {
    return new Bun.S3Client({ endpoint: this.endpoint, bucket: this.bucket, ...LOCAL_S3_KEYS });
  }

  /** The keys under `prefix`, in order. */
  async keys(prefix = ""): Promise<string[]> {
    return ((await this.client().list({ prefix })).contents ?? []).map((o) => o.key).sort();
  }
}
