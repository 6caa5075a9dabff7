// @engine each
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { one } from "../src/db/client";
import { contacts, tickets } from "../src/db/tables";
import { DRAFT_MAX_LENGTH } from "../src/shared/contracts/tickets";
import { call, createSandboxConnection, loginAs, makeTestApp, salesAndSupport, type TestContext } from "./helpers";

async function ticketIn(ctx: TestContext, queueId: number | null, userId: number | null = null) {
  const conn = await createSandboxConnection(ctx);
  const contact = await one(
    ctx.db
      .insert(contacts)
      .values({ name: "Rui", number: `55119${Math.floor(Math.random() * 1e8)}` })
      .returning(),
  );
  return await one(
    ctx.db
      .insert(tickets)
      .values({ contactId: contact.id, status: userId ? "open" : "pending", queueId, userId, whatsappId: conn.id })
      .returning(),
  );
}

const draftOf = (ctx: TestContext, token: string, ticketId: number) =>
  call(ctx.app, "GET", `/api/tickets/${ticketId}/draft`, { token });
const putDraft = (ctx: TestContext, token: string, ticketId: number, body: string) =>
  call(ctx.app, "PUT", `/api/tickets/${ticketId}/draft`, { token, body: { body } });

describe("ticket drafts", () => {
  test("a draft is kept per ticket and per user, and a blank one is deleted", async () => {
    const ctx = await makeTestApp();
    const { sales, admin, agent } = await salesAndSupport(ctx);
    const ticket = await ticketIn(ctx, sales.id);

    expect((await putDraft(ctx, agent.token, ticket.id, "Hello, your order")).json.body).toBe("Hello, your order");
    await putDraft(ctx, admin.token, ticket.id, "Admin's words");

    expect((await draftOf(ctx, agent.token, ticket.id)).json).toMatchObject({
      ticketId: ticket.id,
      body: "Hello, your order",
    });
    expect((await draftOf(ctx, admin.token, ticket.id)).json.body).toBe("Admin's words");
    const listed = await call(ctx.app, "GET", "/api/tickets/drafts", { token: agent.token });
    expect(listed.json.map((d: { ticketId: number; body: string }) => [d.ticketId, d.body])).toEqual([
      [ticket.id, "Hello, your order"],
    ]);

    await putDraft(ctx, agent.token, ticket.id, "  ");
    expect((await draftOf(ctx, agent.token, ticket.id)).json).toMatchObject({ body: "", updatedAt: null });
    await call(ctx.app, "DELETE", `/api/tickets/${ticket.id}/draft`, { token: admin.token });
    expect((await draftOf(ctx, admin.token, ticket.id)).json.body).toBe("");
  });

  test("drafts follow the rule for reading the ticket: another queue's ticket is refused, a missing one not found", async () => {
    const ctx = await makeTestApp();
    const { support, agent } = await salesAndSupport(ctx);
    const other = await ticketIn(ctx, support.id);

    expect((await putDraft(ctx, agent.token, other.id, "peek")).status).toBe(403);
    expect((await draftOf(ctx, agent.token, other.id)).status).toBe(403);
    expect((await call(ctx.app, "DELETE", `/api/tickets/${other.id}/draft`, { token: agent.token })).status).toBe(403);
    expect((await draftOf(ctx, agent.token, 999_999)).status).toBe(404);
  });

  test("a draft the user may no longer see leaves the list of their drafts", async () => {
    const ctx = await makeTestApp();
    const { sales, support, agent } = await salesAndSupport(ctx);
    const ticket = await ticketIn(ctx, sales.id);
    await putDraft(ctx, agent.token, ticket.id, "about that order");

    await call(ctx.app, "PUT", `/api/tickets/${ticket.id}`, {
      token: (await loginAs(ctx, { profile: "admin" })).token,
      body: { queueId: support.id },
    });

    expect((await call(ctx.app, "GET", "/api/tickets/drafts", { token: agent.token })).json).toEqual([]);
  });

  test("a draft longer than a message is refused", async () => {
    const ctx = await makeTestApp();
    const { sales, agent } = await salesAndSupport(ctx);
    const ticket = await ticketIn(ctx, sales.id);

    const res = await putDraft(ctx, agent.token, ticket.id, "x".repeat(DRAFT_MAX_LENGTH + 1));

    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: "VALIDATION", field: "body" });
    expect((await draftOf(ctx, agent.token, ticket.id)).json.body).toBe("");
  });

  test("sending a message or saving a note clears the sender's draft only", async () => {
    const ctx = await makeTestApp();
    const { sales, admin, agent } = await salesAndSupport(ctx);
    const ticket = await ticketIn(ctx, sales.id, agent.user.id);
    await putDraft(ctx, agent.token, ticket.id, "Your order left today");
    await putDraft(ctx, admin.token, ticket.id, "Admin's half sentence");

    const sent = await call(ctx.app, "POST", `/api/messages/${ticket.id}`, {
      token: agent.token,
      body: { body: "Your order left today" },
    });
    expect(sent.status).toBe(200);
    expect((await draftOf(ctx, agent.token, ticket.id)).json.body).toBe("");
    expect((await draftOf(ctx, admin.token, ticket.id)).json.body).toBe("Admin's half sentence");

    await putDraft(ctx, agent.token, ticket.id, "note to self");
    await call(ctx.app, "POST", `/api/messages/${ticket.id}`, {
      token: agent.token,
      body: { body: "note to self", isPrivate: true },
    });
    expect((await draftOf(ctx, agent.token, ticket.id)).json.body).toBe("");
  });

  test("a draft is stored: it is still there after a restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zapdesk-drafts-"));
    const paths = { dataDir: dir, databasePath: join(dir, "zapdesk.sqlite"), mediaDir: join(dir, "media") };
    const before = await makeTestApp(paths);
    const { sales, agent } = await salesAndSupport(before);
    const ticket = await ticketIn(before, sales.id);
    await putDraft(before, agent.token, ticket.id, "Half a reply");

    const after = await makeTestApp(paths);

    expect((await draftOf(after, agent.token, ticket.id)).json.body).toBe("Half a reply");
  });
});
