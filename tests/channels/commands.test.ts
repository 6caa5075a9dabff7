// @engine each
import { describe, expect, test } from "bun:test";
import { ConnectionCommands } from "../../src/channels/commands";
import { connectionCommands } from "../../src/db/tables";
import { createLogger } from "../../src/log";
import { createSandboxConnection, makeTestApp } from "../helpers";

async function setup() {
  const ctx = await makeTestApp();
  const connection = await createSandboxConnection(ctx, { scan: false });
  const notified: number[] = [];
  const commands = new ConnectionCommands(ctx.db, createLogger("silent"), (id) => notified.push(id));
  const stored = async () => (await ctx.db.select().from(connectionCommands)).map((c) => c.kind);
  return { ctx, id: connection.id, commands, notified, stored };
}

describe("commands for the node running a connection", () => {
  test("are stored and announced, then carried out oldest first and deleted", async () => {
    const { id, commands, notified, stored } = await setup();
    const done: string[] = [];
    commands.handle("say", async (_id, payload) => {
      done.push((payload as { word: string }).word);
    });
    for (const word of ["um", "dois", "três"]) await commands.post(id, "say", { word });
    expect(notified).toEqual([id, id, id]);
    expect(await stored()).toEqual(["say", "say", "say"]);
    await commands.drain(id, async () => true);
    expect(done).toEqual(["um", "dois", "três"]);
    expect(await stored()).toEqual([]);
  });

  test("one that fails while the connection runs here is dropped; once it runs elsewhere the rest waits for that node", async () => {
    const { id, commands, stored } = await setup();
    let runsHere = true;
    const done: string[] = [];
    commands.handle("ok", async () => {
      done.push("ok");
    });
    commands.handle("broken", async () => {
      throw new Error("bad payload");
    });
    commands.handle("cut", async () => {
      runsHere = false;
      throw new Error("session stopped");
    });
    await commands.post(id, "broken");
    await commands.post(id, "ok");
    await commands.post(id, "cut");
    await commands.post(id, "ok");
    await commands.drain(id, async () => runsHere);
    expect(done).toEqual(["ok"]);
    expect(await stored()).toEqual(["cut", "ok"]);
  });

  test("drains of one connection run one after the other, so none is carried out twice", async () => {
    const { id, commands, stored } = await setup();
    let runs = 0;
    commands.handle("count", async () => {
      runs++;
    });
    for (let i = 0; i < 5; i++) await commands.post(id, "count");
    await Promise.all([commands.drain(id, async () => true), commands.drain(id, async () => true)]);
    expect(runs).toBe(5);
    expect(await stored()).toEqual([]);
  });
});
