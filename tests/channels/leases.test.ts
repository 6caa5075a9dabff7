// @engine each
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConnectionLeases, LEASE_MS, nodeName } from "../../src/channels/leases";
import { closeDatabase, type Db, one } from "../../src/db/client";
import { connections } from "../../src/db/tables";
import { testDatabase } from "../helpers";

let cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.reverse()) await f();
  cleanup = [];
});

function dataDir() {
  const dir = mkdtempSync(join(tmpdir(), "zapdesk-node-"));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function withConnection(): Promise<{ db: Db; id: number }> {
  const db = await testDatabase();
  cleanup.push(() => closeDatabase(db));
  const { id } = await one(db.insert(connections).values({ name: "Main", provider: "sandbox" }).returning());
  return { db, id };
}

describe("connection leases", () => {
  test("a node restarted on its own DATA_DIR takes back at once the lease its crashed run still held", async () => {
    const { db, id } = await withConnection();
    const dir = dataDir();
    let now = Date.parse("2026-05-04T10:00:00Z");
    const crashed = new ConnectionLeases(db, nodeName(dir), () => now);
    expect(await crashed.claim(id)).toBe(true);

    now += 1000;
    const restarted = new ConnectionLeases(db, nodeName(dir), () => now);
    const other = new ConnectionLeases(db, nodeName(dataDir()), () => now);
    expect(restarted.nodeId).toBe(crashed.nodeId);
    expect(other.nodeId).not.toBe(crashed.nodeId);
    expect(await other.claim(id)).toBe(false);
    expect(await restarted.claim(id)).toBe(true);
    expect(await other.holder(id)).toBe(restarted.nodeId);
  });

  test("another node takes a dead node's lease only once it expired, and a released one at once", async () => {
    const { db, id } = await withConnection();
    let now = Date.parse("2026-05-04T10:00:00Z");
    const a = new ConnectionLeases(db, "node-a", () => now);
    const b = new ConnectionLeases(db, "node-b", () => now);
    expect(await a.claim(id)).toBe(true);
    now += LEASE_MS - 1;
    expect(await b.claim(id)).toBe(false);
    now += 2;
    expect(await b.claim(id)).toBe(true);
    expect(await a.renew()).toEqual([]);

    await b.release(id);
    expect(await a.claim(id)).toBe(true);
  });
});
