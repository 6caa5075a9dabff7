// @engine once
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCommand } from "../src/cli";
import { freshPgUrl } from "./pg-harness";
import { hasPostgres } from "./sql-servers";

let dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "zapdesk-pgbackup-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

const io = () => {
  const lines: string[] = [];
  return { lines, out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
};

describe.skipIf(!hasPostgres)("zapdesk backup on a node that stores in PostgreSQL", () => {
  // The first test starts the throwaway PostgreSQL cluster, which takes a few seconds.
  test("runs pg_dump into FILE when it is installed, and says to copy the media beside it", async () => {
    const url = `${await freshPgUrl()}?max=2`;
    const dataDir = join(tempDir(), "data");
    const out = join(tempDir(), "zapdesk.dump");
    const said = io();
    const env = { DATABASE_URL: url, DATA_DIR: dataDir, PATH: process.env.PATH };
    expect(await runCommand(["backup", "--out", out], env, said)).toBe(0);
    expect(readFileSync(out).subarray(0, 5).toString()).toBe("PGDMP");
    expect(said.lines.join("\n")).toContain("pg_restore");
    expect(said.lines.join("\n")).toContain(`MEDIA_DIR (${join(dataDir, "media")})`);
    expect(existsSync(dataDir)).toBe(false);
  }, 60_000);

  test("without pg_dump, exits 1 with the pg_dump command to run, its password left out", async () => {
    const out = join(tempDir(), "zapdesk.dump");
    const said = io();
    const env = { DATABASE_URL: "postgres://zapdesk:s3cret@db.example.com:5432/zapdesk?max=4", PATH: "" };
    expect(await runCommand(["backup", "--out", out], env, said)).toBe(1);
    const text = said.lines.join("\n");
    expect(text).toContain(`pg_dump --format=custom --file=${out} 'postgres://zapdesk:…@db.example.com:5432/zapdesk'`);
    expect(text).not.toContain("s3cret");
    expect(existsSync(out)).toBe(false);
  });
});
