// @engine once
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { tables, useEngine } from "../src/db/tables";
import * as sqlite from "../src/db/schema";
import { openStorage } from "../src/ops/storage";
import { createLogger } from "../src/log";
import { testConfig } from "./helpers";

const root = join(import.meta.dir, "..");

describe("the engine is chosen by composition", () => {
  test("no module reads a table while it loads, so the engine chosen at composition reaches every query", async () => {
    const scan = Bun.spawn(
      ["bun", "--preload", "./tests/engine-scan/unbound-tables.ts", "./tests/engine-scan/load-every-module.ts"],
      { cwd: root, stdout: "pipe", stderr: "pipe" },
    );
    const [out, err, code] = await Promise.all([
      new Response(scan.stdout).text(),
      new Response(scan.stderr).text(),
      scan.exited,
    ]);
    expect({ code, err: err.trim() }).toEqual({ code: 0, err: "" });
    expect(out.trim().split("\n").filter(Boolean)).toEqual([]);
  });

  test("opening the configured storage chooses its engine's tables", async () => {
    const db = await openStorage(testConfig(), createLogger("silent"));
    expect(db).toBeDefined();
    expect(tables.tickets).toBe(sqlite.tickets);
  });

  test("a process that stores in one engine refuses to switch to the other", () => {
    expect(() => useEngine("postgres")).toThrow("this process already stores in sqlite, not postgres");
    expect(tables.tickets).toBe(sqlite.tickets);
  });
});
