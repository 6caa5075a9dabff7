// @engine each
import { first } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { contacts, tickets } from "../src/db/tables";
import { closeStaleTickets, scheduleAutoClose } from "../src/modules/tickets/auto-close";
import { createSandboxConnection, createUser, makeTestApp } from "./helpers";

describe("auto-close", () => {
  test("closes open tickets idle longer than the configured hours, keeping the user, without the farewell", async () => {
    const ctx = await makeTestApp();
    const conn = await createSandboxConnection(ctx, { farewellMessage: "Bye!" });
    const agent = await createUser(ctx);
    const [a, b, c] = await ctx.db
      .insert(contacts)
      .values([
        { name: "A", number: "5511900000001" },
        { name: "B", number: "5511900000002" },
        { name: "C", number: "5511900000003" },
      ])
      .returning();
    const now = ctx.clock.now();
    const old = new Date(now - 3 * 3600_000);
    const [stale, fresh, pending] = await ctx.db
      .insert(tickets)
      .values([
        { contactId: a!.id, whatsappId: conn.id, status: "open", userId: agent.id, updatedAt: old },
        {
          contactId: b!.id,
          whatsappId: conn.id,
          status: "open",
          userId: agent.id,
          updatedAt: new Date(now - 3600_000),
        },
        { contactId: c!.id, whatsappId: conn.id, status: "pending", updatedAt: old },
      ])
      .returning();

    expect(await closeStaleTickets(ctx.deps, 0)).toEqual([]);
    expect(await closeStaleTickets(ctx.deps, 2)).toEqual([stale!.id]);

    const status = async (id: number) => (await first(ctx.db.select().from(tickets).where(eq(tickets.id, id))))!;
    expect(await status(stale!.id)).toMatchObject({ status: "closed", userId: agent.id });
    expect((await status(fresh!.id)).status).toBe("open");
    expect((await status(pending!.id)).status).toBe("pending");
    expect(
      ctx.hub.named("ticket").some((e) => e.payload.ticket?.id === stale!.id && e.payload.ticket.status === "closed"),
    ).toBe(true);
    expect(await ctx.sandbox.network.outbox(conn.id, "5511900000001")).toHaveLength(0);
  });

  test("the job's turns pass while no open ticket is idle that long, and the first turn after one is closes it", async () => {
    const ctx = await makeTestApp();
    await scheduleAutoClose(ctx.deps.jobs, ctx.deps, 2);
    const contact = await first(ctx.db.insert(contacts).values({ name: "A", number: "5511900000001" }).returning());
    const ticket = await first(
      ctx.db
        .insert(tickets)
        .values({ contactId: contact!.id, status: "open", updatedAt: new Date(ctx.clock.now()) })
        .returning(),
    );
    const turn = async (ms: number) => {
      ctx.clock.advance(ms);
      await ctx.deps.jobs.tick();
      return (await first(ctx.db.select().from(tickets).where(eq(tickets.id, ticket!.id))))!.status;
    };
    expect(await turn(3600_000)).toBe("open");
    expect(await turn(3600_000)).toBe("open");
    expect(await turn(60_000)).toBe("closed");
  });
});
