// @engine once
import { describe, expect, test } from "bun:test";
import { chatbots } from "../src/db/tables";
import { call, createUser, setupAdminAndAgent } from "./helpers";

async function setup() {
  const { ctx, admin, agent } = await setupAdminAndAgent();
  return { ctx, admin: admin.token, agent: agent.token };
}

const tree = (userId?: number) => [
  {
    name: "Billing",
    greetingMessage: "Pick one",
    options: [
      { name: "Invoices", options: [{ name: "Send copy" }] },
      { name: "Talk to us", isAgent: true, userId },
    ],
  },
  { name: "Support" },
];

describe("queues", () => {
  test("create with a nested chatbot tree in one go; GET /queue/:id returns the whole tree by id", async () => {
    const { ctx, admin, agent } = await setup();
    const person = await createUser(ctx);
    const res = await call(ctx.app, "POST", "/api/queue", {
      token: admin,
      body: { name: "Sales", color: "#ff0000", greetingMessage: "Hi", chatbots: tree(person.id) },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      name: "Sales",
      chatbots: [
        {
          name: "Billing",
          options: [
            { name: "Invoices", options: [{ name: "Send copy", options: [] }] },
            { name: "Talk to us", isAgent: true, userId: person.id },
          ],
        },
        { name: "Support", options: [] },
      ],
    });
    expect(ctx.hub.to("all", "queue")[0]!.payload).toMatchObject({ action: "update", queue: { id: res.json.id } });
    const shown = await call(ctx.app, "GET", `/api/queue/${res.json.id}`, { token: agent });
    expect(shown.json.chatbots[0].options[0].options[0].name).toBe("Send copy");
    const list = await call(ctx.app, "GET", "/api/queue", { token: agent });
    expect(list.json).toHaveLength(1);
    expect(list.json[0].chatbots).toBeUndefined();
  });

  test("update upserts options by id, deletes missing ones with their subtrees, keeps the tree when chatbots is absent", async () => {
    const { ctx, admin } = await setup();
    const q = (
      await call(ctx.app, "POST", "/api/queue", {
        token: admin,
        body: { name: "Sales", color: "#ff0000", chatbots: tree() },
      })
    ).json;
    const billing = q.chatbots[0];
    const renamed = await call(ctx.app, "PUT", `/api/queue/${q.id}`, {
      token: admin,
      body: {
        chatbots: [
          { id: billing.id, name: "Billing desk", options: [{ id: billing.options[1].id, name: "Talk to a human" }] },
          { name: "Brand new" },
        ],
      },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.json.chatbots).toMatchObject([
      { id: billing.id, name: "Billing desk", options: [{ id: billing.options[1].id, name: "Talk to a human" }] },
      { name: "Brand new" },
    ]);
    const kept = await call(ctx.app, "PUT", `/api/queue/${q.id}`, {
      token: admin,
      body: { greetingMessage: "Welcome" },
    });
    expect(kept.json).toMatchObject({
      greetingMessage: "Welcome",
      chatbots: [{ id: billing.id }, { name: "Brand new" }],
    });
    const emptied = await call(ctx.app, "PUT", `/api/queue/${q.id}`, { token: admin, body: { chatbots: [] } });
    expect(emptied.json.chatbots).toEqual([]);
    expect((await call(ctx.app, "GET", "/api/chatbot", { token: admin })).json).toEqual([]);
  });

  test("validation: name 2–50 and unique, colour 3–9 and unique, option names ≥ 4, agents of options must exist", async () => {
    const { ctx, admin } = await setup();
    const post = (body: unknown) => call(ctx.app, "POST", "/api/queue", { token: admin, body });
    expect(await post({ color: "#fff" })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "required", message: "Required", field: "name" },
    });
    expect(await post({ name: "S", color: "#fff" })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "min", message: "Too Short!", field: "name" },
    });
    expect(await post({ name: "S".repeat(51), color: "#fff" })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "max", message: "Too Long!", field: "name" },
    });
    expect(await post({ name: "Sales" })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "required", message: "Required", field: "color" },
    });
    expect(await post({ name: "Sales", color: "#f" })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "min", message: "Too Short!", field: "color" },
    });
    expect(await post({ name: "Sales", color: "#ff00ff00ff" })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "max", message: "Too Long!", field: "color" },
    });
    expect(await post({ name: "Sales", color: "#fff", chatbots: [{ name: "abc" }] })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "min", message: "Too Short!" },
    });
    expect(
      await post({ name: "Sales", color: "#fff", chatbots: [{ name: "Fine", options: [{ name: "ab" }] }] }),
    ).toMatchObject({ status: 400, json: { error: "VALIDATION", rule: "min", message: "Too Short!" } });
    expect(
      await post({ name: "Sales", color: "#fff", chatbots: [{ name: "Fine", isAgent: true, userId: 999 }] }),
    ).toMatchObject({ status: 400, json: { error: "ERR_NO_USER_FOUND" } });
    expect(await post({ name: "Sales", color: "#fff", chatbots: "nope" })).toMatchObject({ status: 400 });
    await post({ name: "Sales", color: "#fff" });
    expect(await post({ name: "Sales", color: "#000" })).toMatchObject({
      status: 400,
      json: { error: "ERR_QUEUE_NAME_ALREADY_EXISTS" },
    });
    expect(await post({ name: "Support", color: "#fff" })).toMatchObject({
      status: 400,
      json: { error: "ERR_QUEUE_COLOR_ALREADY_EXISTS" },
    });
    const support = (await post({ name: "Support", color: "#000" })).json;
    expect(
      await call(ctx.app, "PUT", `/api/queue/${support.id}`, { token: admin, body: { name: "Sales" } }),
    ).toMatchObject({ status: 400, json: { error: "ERR_QUEUE_NAME_ALREADY_EXISTS" } });
    expect(
      await call(ctx.app, "PUT", `/api/queue/${support.id}`, { token: admin, body: { color: "#fff" } }),
    ).toMatchObject({ status: 400, json: { error: "ERR_QUEUE_COLOR_ALREADY_EXISTS" } });
    expect(
      await call(ctx.app, "PUT", `/api/queue/${support.id}`, {
        token: admin,
        body: { name: "Support", color: "#000" },
      }),
    ).toMatchObject({ status: 200 });
  });

  test("delete takes the chatbot tree with it and tells everyone; unknown ids 404", async () => {
    const { ctx, admin } = await setup();
    const q = (
      await call(ctx.app, "POST", "/api/queue", {
        token: admin,
        body: { name: "Sales", color: "#fff", chatbots: tree() },
      })
    ).json;
    expect(await call(ctx.app, "DELETE", `/api/queue/${q.id}`, { token: admin })).toMatchObject({ status: 200 });
    expect(await ctx.db.select().from(chatbots)).toEqual([]);
    expect(ctx.hub.to("all", "queue").at(-1)!.payload).toEqual({ action: "delete", queueId: q.id });
    const missing = { status: 404, json: { error: "ERR_NO_QUEUE_FOUND" } };
    expect(await call(ctx.app, "DELETE", `/api/queue/${q.id}`, { token: admin })).toMatchObject(missing);
    expect(await call(ctx.app, "GET", `/api/queue/${q.id}`, { token: admin })).toMatchObject(missing);
    expect(await call(ctx.app, "PUT", `/api/queue/${q.id}`, { token: admin, body: { name: "Other" } })).toMatchObject(
      missing,
    );
  });

  test("agents read but may not write", async () => {
    const { ctx, admin, agent } = await setup();
    const q = (await call(ctx.app, "POST", "/api/queue", { token: admin, body: { name: "Sales", color: "#fff" } }))
      .json;
    const no = { status: 403, json: { error: "ERR_NO_PERMISSION" } };
    expect(
      await call(ctx.app, "POST", "/api/queue", { token: agent, body: { name: "Mine", color: "#abc" } }),
    ).toMatchObject(no);
    expect(await call(ctx.app, "PUT", `/api/queue/${q.id}`, { token: agent, body: { name: "Mine" } })).toMatchObject(
      no,
    );
    expect(await call(ctx.app, "DELETE", `/api/queue/${q.id}`, { token: agent })).toMatchObject(no);
    expect((await call(ctx.app, "GET", `/api/queue/${q.id}`, { token: agent })).status).toBe(200);
    expect((await call(ctx.app, "GET", "/api/queue")).status).toBe(401);
  });
});
