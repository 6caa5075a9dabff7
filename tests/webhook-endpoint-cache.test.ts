// @engine each
import { afterEach, describe, expect, test } from "bun:test";
import { closeDatabase } from "../src/db/client";
import { eq } from "drizzle-orm";
import { webhookDeliveries, webhookEndpoints } from "../src/db/tables";
import { recordEvent } from "../src/modules/webhooks/deliveries";
import { ENDPOINTS_KEPT_MS, endpointCache } from "../src/modules/webhooks/endpoint-cache";
import { makeTestApp, type TestContext } from "./helpers";

let ctx: TestContext | undefined;
afterEach(async () => {
  if (ctx) await closeDatabase(ctx.db);
  ctx = undefined;
});

/** An endpoint written straight to the table, as another node sharing the database would. */
async function insertedElsewhere(events: string[]) {
  const [row] = await ctx!.db
    .insert(webhookEndpoints)
    .values({ url: "https://example.com/hook", events: JSON.stringify(events), secret: "whsec_x" })
    .returning();
  return row!;
}

describe("the endpoints kept for webhook recording", () => {
  test("are read once, and again when the bus tells of a change (from any node) or after their time is up", async () => {
    ctx = await makeTestApp();
    const subscribed = endpointCache(ctx.deps);
    expect(await subscribed("message.received")).toEqual([]);
    const endpoint = await insertedElsewhere(["message.received"]);
    expect(await subscribed("message.received")).toEqual([]);
    ctx.deps.events.emit("webhooks.changed", { endpointId: endpoint.id });
    expect((await subscribed("message.received")).map((e) => e.id)).toEqual([endpoint.id]);
    expect(await subscribed("ticket.status")).toEqual([]);

    const missed = await insertedElsewhere(["ticket.status"]);
    expect(await subscribed("ticket.status")).toEqual([]);
    ctx.clock.advance(ENDPOINTS_KEPT_MS);
    expect((await subscribed("ticket.status")).map((e) => e.id)).toEqual([missed.id]);
  });

  test("a read under way when a change is told is not kept, and `forget` reads them again", async () => {
    ctx = await makeTestApp();
    const subscribed = endpointCache(ctx.deps);
    const reading = subscribed("message.received");
    const endpoint = await insertedElsewhere(["message.received"]);
    ctx.deps.events.emit("webhooks.changed", { endpointId: endpoint.id });
    await reading;
    expect((await subscribed("message.received")).map((e) => e.id)).toEqual([endpoint.id]);
    await ctx.db.delete(webhookEndpoints);
    subscribed.forget();
    expect(await subscribed("message.received")).toEqual([]);
  });

  test("an event for an endpoint removed elsewhere but still kept here is recorded for the endpoints left", async () => {
    ctx = await makeTestApp();
    const subscribed = endpointCache(ctx.deps);
    const removed = await insertedElsewhere(["message.received"]);
    const left = await insertedElsewhere(["message.received"]);
    expect(await subscribed("message.received")).toHaveLength(2);
    await ctx.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, removed.id));
    await recordEvent(ctx.deps, subscribed, "message.received", "msg:1", () => ({}));
    expect((await ctx.db.select().from(webhookDeliveries)).map((d) => d.endpointId)).toEqual([left.id]);
  });
});
