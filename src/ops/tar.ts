import { closeSync, createReadStream, mkdirSync, openSync, readSync, statSync, writeSync } from "node:fs";
import { dirname, join, normalize } from "node:path";

const BLOCK = 512;

/**
 * A minimal POSIX ustar archive of regular files, enough for a backup (the database and the media folder):
 * names up to 100 bytes, no links, no permissions beyond 0600. Written and read in blocks, never whole in memory.
 */
export class TarWriter {
  private readonly fd: number;

  constructor(path: string) {
    this.fd = openSync(path, "w", 0o600);
  }

  /** Appends a file from disk under `name` (a relative path with `/`). */
  async addFile(name: string, source: string) {
    const size = statSync(source).size;
    writeSync(this.fd, header(name, size));
    let written = 0;
    for await (const chunk of createReadStream(source)) {
      const bytes = chunk as Buffer;
      writeSync(this.fd, bytes);
      written += bytes.length;
    }
    if (written !== size) throw new Error(`${source} changed while it was archived`);
    writeSync(this.fd, new Uint8Array(padding(size)));
  }

  /** Writes the two empty blocks that end an archive and closes it. */
  close() {
    writeSync(this.fd, new Uint8Array(BLOCK * 2));
    closeSync(this.fd);
  }
}

/** True when the file starts like a ustar archive. */
export function isTar(path: string): boolean {
  const fd = openSync(path, "r");
  try {
    const block = new Uint8Array(BLOCK);
    if (readSync(fd, block, 0, BLOCK, 0) < BLOCK) return false;
    return new TextDecoder().decode(block.subarray(257, 262)) === "ustar";
  } finally {
    closeSync(fd);
  }
}

/**
 * Extracts every regular file of the archive under `into`, calling `accept(name)` first: a name it refuses is
 * skipped. Names that would leave `into` (absolute, or with `..`) are refused outright.
 */
export function extractTar(archive: string, into: string, accept: (name: string) => boolean = () => true): string[] {
  const fd = openSync(archive, "r");
  const names: string[] = [];
  try {
    let offset = 0;
    const block = new Uint8Array(BLOCK);
    for (;;) {
      if (readSync(fd, block, 0, BLOCK, offset) < BLOCK) throw new Error("the archive ends early");
      if (block.every((b) => b === 0)) return names;
      const name = field(block, 0, 100);
      const size = Number.parseInt(field(block, 124, 12).trim() || "0", 8);
      const type = String.fromCharCode(block[156]!);
      if (!checksumOk(block)) throw new Error("the archive is damaged (bad header checksum)");
      offset += BLOCK;
      const safe = normalize(name);
      if ((type === "0" || type === "\0") && !safe.startsWith("..") && !safe.startsWith("/") && accept(safe)) {
        copyOut(fd, offset, size, join(into, safe));
        names.push(safe);
      }
      offset += size + padding(size);
    }
  } finally {
    closeSync(fd);
  }
}

function copyOut(fd: number, offset: number, size: number, target: string) {
  mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
  const out = openSync(target, "w", 0o600);
  try {
    const buffer = new Uint8Array(64 * 1024);
    for (let done = 0; done < size; ) {
      const read = readSync(fd, buffer, 0, Math.min(buffer.length, size - done), offset + done);
      if (read <= 0) throw new Error("the archive ends early");
      writeSync(out, buffer.subarray(0, read));
      done += read;
    }
  } finally {
    closeSync(out);
  }
}

function header(name: string, size: number): Uint8Array {
  const bytes = new TextEncoder().encode(name);
  if (bytes.length > 100) throw new Error(`file name too long for the archive: ${name}`);
  const block = new Uint8Array(BLOCK);
  block.set(bytes, 0);
  put(block, 100, octal(0o600, 8));
  put(block, 108, octal(0, 8));
  put(block, 116, octal(0, 8));
  put(block, 124, octal(size, 12));
  put(block, 136, octal(Math.floor(Date.now() / 1000), 12));
  block.fill(0x20, 148, 156);
  block[156] = "0".charCodeAt(0);
  put(block, 257, "ustar\u000000");
  const sum = block.reduce((a, b) => a + b, 0);
  put(block, 148, `${sum.toString(8).padStart(6, "0")}\u0000 `);
  return block;
}

function checksumOk(block: Uint8Array): boolean {
  const stored = Number.parseInt(field(block, 148, 8).trim(), 8);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i]!;
  return sum === stored;
}

const octal = (n: number, width: number) => `${n.toString(8).padStart(width - 1, "0")}\u0000`;
const put = (block: Uint8Array, at: number, text: string) => block.set(new TextEncoder().encode(text), at);
const field = (block: Uint8Array, at: number, len: number) =>
  new TextDecoder().decode(block.subarray(at, at + len)).replace(/\u0000.*$/s, "");
const padding = (size: number) => (BLOCK - (size % BLOCK)) % BLOCK;
