declare module "@20minutes/s3rver" {
  /** A local S3-compatible server keeping its buckets in a folder. */
  export default class S3rver {
    constructor(options: {
      address?: string;
      port?: number;
      silent?: boolean;
      directory: string;
      allowMismatchedSignatures?: boolean;
      configureBuckets?: { name: string }[];
    });
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
