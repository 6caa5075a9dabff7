import type { S3Location } from "../shared/s3-location";

/**
 * The off-site copies of backups: files in one folder of a bucket on an S3-compatible store (BACKUP_S3_URL),
 * reached with Bun's S3 client in path-style requests. Its errors say what failed without the keys.
 */
export class OffsiteStore {
  private readonly client: Bun.S3Client;

  constructor(private readonly location: S3Location) {
    this.client = new Bun.S3Client({
      bucket: location.bucket,
      accessKeyId: location.accessKeyId,
      secretAccessKey: location.secretAccessKey,
      ...(location.endpoint ? { endpoint: location.endpoint } : {}),
      ...(location.region ? { region: location.region } : {}),
    });
  }

  /** Copies the file at `path` to `name` in the folder (large files go up in parts). */
  async upload(name: string, path: string) {
    await this.attempt(`upload ${name}`, () => this.client.write(this.location.prefix + name, Bun.file(path)));
  }

  /** Copies `name` from the folder into the file `out`. */
  async download(name: string, out: string) {
    await this.attempt(`download ${name}`, () => Bun.write(out, this.client.file(this.location.prefix + name)));
  }

  /** The names of the files directly in the folder, in name order. */
  async names(): Promise<string[]> {
    return await this.attempt("list", async () => {
      const names: string[] = [];
      let continuationToken: string | undefined;
      do {
        const page = await this.client.list({ prefix: this.location.prefix, continuationToken });
        for (const { key } of page.contents ?? []) {
          const name = key.slice(this.location.prefix.length);
          if (name && !name.includes("/")) names.push(name);
        }
        continuationToken = page.isTruncated ? page.nextContinuationToken : undefined;
      } while (continuationToken);
      return names.sort();
    });
  }

  /** Deletes `name` from the folder. */
  async delete(name: string) {
    await this.attempt(`delete ${name}`, () => this.client.delete(this.location.prefix + name));
  }

  private async attempt<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw new Error(`${what} at ${this.location.shown}: ${describe(error)}`);
    }
  }
}

/** The store's error code and message (S3 errors carry no keys; the code alone says e.g. SignatureDoesNotMatch). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && code && !error.message.includes(code)
    ? `${code}: ${error.message}`
    : error.message;
}
