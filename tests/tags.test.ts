// @engine once
import { one } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { tickets, ticketTags, contacts } from "../src/db/tables";
import { call, setupAdminAndAgent } from "./helpers";

async function setup() {
  const { ctx, admin, agent } = await setupAdminAndAgent();
  return { ctx, admin: admin.token, agent: agent.token };
}

describe("tags", () => {
  test("anyone creates a tag; colour defaults to #eee; everyone is told", async () => {
    const { ctx, agent } = await setup();
    const res = await call(ctx.app, "POST", "/api/tags", { token: agent, body: { name: "  Urgent " } });
    expect(res).toMatchObject({ status: 200, json: { name: "Urgent", color: "#eee", ticketsCount: 0 } });
    expect(ctx.hub.to("all", "tag")[0]!.payload).toMatchObject({ action: "create", tag: { name: "Urgent" } });
  });

  test("name is required ('Obrigatório'), at least 3 characters ('Mensagem muito curta') and unique", async () => {
    const { ctx, admin } = await setup();
    expect(await call(ctx.app, "POST", "/api/tags", { token: admin, body: {} })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "required", message: "Obrigatório", field: "name" },
    });
    expect(await call(ctx.app, "POST", "/api/tags", { token: admin, body: { name: "  " } })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "required", message: "Obrigatório" },
    });
    expect(await call(ctx.app, "POST", "/api/tags", { token: admin, body: { name: "ab" } })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "min", message: "Mensagem muito curta" },
    });
    expect(await call(ctx.app, "POST", "/api/tags", { token: admin, body: { name: "x".repeat(5000) } })).toMatchObject({
      status: 400,
      json: { field: "name" },
    });
    expect(await call(ctx.app, "POST", "/api/tags", { token: admin, body: { name: 42 } })).toMatchObject({
      status: 400,
    });
    await call(ctx.app, "POST", "/api/tags", { token: admin, body: { name: "Sales" } });
    expect(await call(ctx.app, "POST", "/api/tags", { token: admin, body: { name: "Sales" } })).toMatchObject({
      status: 400,
      json: { error: "ERR_TAG_NAME_ALREADY_EXISTS" },
    });
  });

  test("update is admin-only and keeps names unique; unknown ids are 404", async () => {
    const { ctx, admin, agent } = await setup();
    const a = (await call(ctx.app, "POST", "/api/tags", { token: admin, body: { name: "Alpha" } })).json;
    await call(ctx.app, "POST", "/api/tags", { token: admin, body: { name: "Bravo" } });
    expect(await call(ctx.app, "PUT", `/api/tags/${a.id}`, { token: agent, body: { name: "Gamma" } })).toMatchObject({
      status: 403,
      json: { error: "ERR_NO_PERMISSION" },
    });
    expect(await call(ctx.app, "PUT", `/api/tags/${a.id}`, { token: admin, body: { name: "Bravo" } })).toMatchObject({
      status: 400,
      json: { error: "ERR_TAG_NAME_ALREADY_EXISTS" },
    });
    const ok = await call(ctx.app, "PUT", `/api/tags/${a.id}`, {
      token: admin,
      body: { name: "Alpha", color: "#f00" },
    });
    expect(ok).toMatchObject({ status: 200, json: { name: "Alpha", color: "#f00" } });
    expect(ctx.hub.to("all", "tag").at(-1)!.payload).toMatchObject({ action: "update" });
    expect(await call(ctx.app, "PUT", "/api/tags/999", { token: admin, body: { name: "Delta" } })).toMatchObject({
      status: 404,
      json: { error: "ERR_NO_TAG_FOUND" },
    });
    expect(await call(ctx.app, "GET", "/api/tags/999", { token: admin })).toMatchObject({
      status: 404,
      json: { error: "ERR_NO_TAG_FOUND" },
    });
    expect((await call(ctx.app, "GET", "/api/tags/abc", { token: admin })).status).toBe(400);
  });

  test("delete answers {message:'Tag deleted'} and emits the id", async () => {
    const { ctx, agent } = await setup();
    const tag = (await call(ctx.app, "POST", "/api/tags", { token: agent, body: { name: "Gone" } })).json;
    expect(await call(ctx.app, "DELETE", `/api/tags/${tag.id}`, { token: agent })).toMatchObject({
      status: 200,
      json: { message: "Tag deleted" },
    });
    expect(ctx.hub.to("all", "tag").at(-1)!.payload).toEqual({ action: "delete", tagId: tag.id });
    expect(await call(ctx.app, "DELETE", `/api/tags/${tag.id}`, { token: agent })).toMatchObject({
      status: 404,
      json: { error: "ERR_NO_TAG_FOUND" },
    });
  });

  test("list pages by 20 in name order with hasMore, searches name or colour, and counts distinct tickets", async () => {
    const { ctx, admin } = await setup();
    for (let i = 0; i < 25; i++)
      await call(ctx.app, "POST", "/api/tags", {
        token: admin,
        body: { name: `Tag ${String(i).padStart(2, "0")}`, color: i === 3 ? "#ABCDEF" : "#000" },
      });
    const contact = await one(ctx.db.insert(contacts).values({ name: "C", number: "5511999990000" }).returning());
    const t1 = await one(ctx.db.insert(tickets).values({ contactId: contact.id }).returning());
    const t2 = await one(ctx.db.insert(tickets).values({ contactId: contact.id, status: "closed" }).returning());
    const first = await call(ctx.app, "GET", "/api/tags", { token: admin });
    expect(first.json).toMatchObject({ count: 25, hasMore: true });
    expect(first.json.tags).toHaveLength(20);
    expect(first.json.tags[0].name).toBe("Tag 00");
    await ctx.db.insert(ticketTags).values([
      { ticketId: t1.id, tagId: first.json.tags[0].id },
      { ticketId: t2.id, tagId: first.json.tags[0].id },
    ]);
    const second = await call(ctx.app, "GET", "/api/tags?pageNumber=2", { token: admin });
    expect(second.json).toMatchObject({ count: 25, hasMore: false });
    expect(second.json.tags).toHaveLength(5);
    const search = await call(ctx.app, "GET", "/api/tags?searchParam=%20abcdef%20", { token: admin });
    expect(search.json.tags.map((t: { name: string }) => t.name)).toEqual(["Tag 03"]);
    const all = await call(ctx.app, "GET", "/api/tags/list", { token: admin });
    expect(all.json).toHaveLength(25);
    expect(all.json[0]).toMatchObject({ name: "Tag 00", ticketsCount: 2 });
    const filtered = await call(ctx.app, "GET", "/api/tags/list?searchParam=TAG%201", { token: admin });
    expect(filtered.json).toHaveLength(10);
    expect((await call(ctx.app, "GET", "/api/tags?pageNumber=0", { token: admin })).status).toBe(400);
    expect((await call(ctx.app, "GET", "/api/tags?searchParam=%25", { token: admin })).json.count).toBe(0);
  });

  test("every route needs a session", async () => {
    const { ctx } = await setup();
    expect((await call(ctx.app, "GET", "/api/tags")).status).toBe(401);
    expect((await call(ctx.app, "POST", "/api/tags", { body: { name: "abc" } })).status).toBe(401);
  });
});
