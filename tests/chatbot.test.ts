// @engine once
import { describe, expect, test } from "bun:test";
import { call, setupAdminAndAgent } from "./helpers";

async function setup() {
  const { ctx, admin, agent } = await setupAdminAndAgent();
  const queue = (
    await call(ctx.app, "POST", "/api/queue", {
      token: admin.token,
      body: {
        name: "Sales",
        color: "#fff",
        chatbots: [{ name: "Billing", options: [{ name: "Invoices", options: [{ name: "Send copy" }] }] }],
      },
    })
  ).json;
  return { ctx, admin: admin.token, agent: agent.token, queue };
}

describe("chatbot options", () => {
  test("GET /chatbot lists only non-first-level options; GET /chatbot/:id has its parent and subtree", async () => {
    const { ctx, agent, queue } = await setup();
    const list = await call(ctx.app, "GET", "/api/chatbot", { token: agent });
    expect(list.json.map((c: { name: string }) => c.name)).toEqual(["Invoices", "Send copy"]);
    const invoices = queue.chatbots[0].options[0];
    const shown = await call(ctx.app, "GET", `/api/chatbot/${invoices.id}`, { token: agent });
    expect(shown.json).toMatchObject({
      name: "Invoices",
      mainChatbot: { name: "Billing" },
      options: [{ name: "Send copy" }],
    });
    expect(await call(ctx.app, "GET", "/api/chatbot/999", { token: agent })).toMatchObject({
      status: 404,
      json: { error: "ERR_NO_CHATBOT_FOUND" },
    });
  });

  test("PUT updates the node and makes its children match the list; events go to everyone", async () => {
    const { ctx, admin, queue } = await setup();
    const billing = queue.chatbots[0];
    const res = await call(ctx.app, "PUT", `/api/chatbot/${billing.id}`, {
      token: admin,
      body: { name: "Billing desk", isAgent: false, options: [{ name: "Refunds" }] },
    });
    expect(res).toMatchObject({
      status: 200,
      json: { name: "Billing desk", options: [{ name: "Refunds", options: [] }] },
    });
    expect(
      (await call(ctx.app, "GET", "/api/chatbot", { token: admin })).json.map((c: { name: string }) => c.name),
    ).toEqual(["Refunds"]);
    expect(ctx.hub.to("all", "chatbot").at(-1)!.payload).toMatchObject({
      action: "update",
      chatbot: { id: billing.id },
    });
    expect(
      await call(ctx.app, "PUT", `/api/chatbot/${billing.id}`, { token: admin, body: { name: "abc" } }),
    ).toMatchObject({ status: 400, json: { error: "VALIDATION", rule: "min", message: "Too Short!" } });
    expect(await call(ctx.app, "PUT", "/api/chatbot/999", { token: admin, body: { name: "Nowhere" } })).toMatchObject({
      status: 404,
      json: { error: "ERR_NO_CHATBOT_FOUND" },
    });
  });

  test("POST creates an option under a parent or alone; DELETE removes its subtree", async () => {
    const { ctx, admin, queue } = await setup();
    const billing = queue.chatbots[0];
    const child = await call(ctx.app, "POST", "/api/chatbot", {
      token: admin,
      body: { name: "Payments", parentId: billing.id, options: [{ name: "Pix key" }] },
    });
    expect(child).toMatchObject({
      status: 200,
      json: { name: "Payments", parentId: billing.id, mainChatbot: { id: billing.id }, options: [{ name: "Pix key" }] },
    });
    expect(await call(ctx.app, "POST", "/api/chatbot", { token: admin, body: { name: "Orphaned" } })).toMatchObject({
      status: 200,
      json: { parentId: null, queueId: null },
    });
    expect(
      await call(ctx.app, "POST", "/api/chatbot", { token: admin, body: { name: "Lost one", parentId: 999 } }),
    ).toMatchObject({ status: 404 });
    expect(await call(ctx.app, "POST", "/api/chatbot", { token: admin, body: {} })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "required", message: "Required", field: "name" },
    });
    expect(await call(ctx.app, "DELETE", `/api/chatbot/${billing.id}`, { token: admin })).toMatchObject({
      status: 200,
    });
    expect(ctx.hub.to("all", "chatbot").at(-1)!.payload).toEqual({ action: "delete", chatbotId: billing.id });
    expect(
      (await call(ctx.app, "GET", "/api/chatbot", { token: admin })).json.map((c: { name: string }) => c.name),
    ).toEqual(["Orphaned"]);
    expect(await call(ctx.app, "DELETE", `/api/chatbot/${billing.id}`, { token: admin })).toMatchObject({
      status: 404,
      json: { error: "ERR_NO_CHATBOT_FOUND" },
    });
  });

  test("agents read but may not write", async () => {
    const { ctx, agent, queue } = await setup();
    const no = { status: 403, json: { error: "ERR_NO_PERMISSION" } };
    expect(await call(ctx.app, "POST", "/api/chatbot", { token: agent, body: { name: "Sneaky" } })).toMatchObject(no);
    expect(
      await call(ctx.app, "PUT", `/api/chatbot/${queue.chatbots[0].id}`, { token: agent, body: { name: "Sneaky" } }),
    ).toMatchObject(no);
    expect(await call(ctx.app, "DELETE", `/api/chatbot/${queue.chatbots[0].id}`, { token: agent })).toMatchObject(no);
  });
});
