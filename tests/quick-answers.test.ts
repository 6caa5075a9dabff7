// @engine once
import { describe, expect, test } from "bun:test";
import { call, setupAdminAndAgent } from "./helpers";

async function setup() {
  const { ctx, admin, agent } = await setupAdminAndAgent();
  return { ctx, token: agent.token, admin: admin.token };
}

const MESSAGE = "Hello, how can I help?";

describe("quick answers", () => {
  test("an agent creates and reads, an admin updates and deletes; everyone is told each time", async () => {
    const { ctx, token, admin } = await setup();
    const created = await call(ctx.app, "POST", "/api/quickAnswers", {
      token,
      body: { shortcut: " hi ", message: MESSAGE },
    });
    expect(created).toMatchObject({ status: 200, json: { shortcut: "hi", message: MESSAGE } });
    const id = created.json.id;
    expect(await call(ctx.app, "GET", `/api/quickAnswers/${id}`, { token })).toMatchObject({
      status: 200,
      json: { id },
    });
    expect(
      await call(ctx.app, "PUT", `/api/quickAnswers/${id}`, { token: admin, body: { message: "Good morning!!" } }),
    ).toMatchObject({ status: 200, json: { message: "Good morning!!" } });
    expect(await call(ctx.app, "PUT", `/api/quickAnswers/${id}`, { token: admin, body: {} })).toMatchObject({
      status: 200,
    });
    expect(await call(ctx.app, "DELETE", `/api/quickAnswers/${id}`, { token: admin })).toMatchObject({ status: 200 });
    expect(ctx.hub.to("all", "quickAnswer").map((e) => (e.payload as { action: string }).action)).toEqual([
      "create",
      "update",
      "update",
      "delete",
    ]);
    expect(ctx.hub.to("all", "quickAnswer").at(-1)!.payload).toEqual({ action: "delete", quickAnswerId: id });
  });

  test("shortcut 2–15 and message 8–30000 are required; a shortcut is unique", async () => {
    const { ctx, token, admin } = await setup();
    const post = (body: unknown) => call(ctx.app, "POST", "/api/quickAnswers", { token, body });
    expect(await post({ message: MESSAGE })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "required", message: "Required", field: "shortcut" },
    });
    expect(await post({ shortcut: "h", message: MESSAGE })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "min", message: "Too Short!", field: "shortcut" },
    });
    expect(await post({ shortcut: "h".repeat(16), message: MESSAGE })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "max", message: "Too Long!", field: "shortcut" },
    });
    expect(await post({ shortcut: "hi", message: "short" })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "min", message: "Too Short!", field: "message" },
    });
    expect(await post({ shortcut: "hi", message: "x".repeat(30001) })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "max", message: "Too Long!", field: "message" },
    });
    expect(await post({ shortcut: "hi" })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "required", message: "Required", field: "message" },
    });
    expect(await post({ shortcut: ["hi"], message: MESSAGE })).toMatchObject({ status: 400 });
    await post({ shortcut: "hi", message: MESSAGE });
    expect(await post({ shortcut: "hi", message: MESSAGE })).toMatchObject({
      status: 400,
      json: { error: "ERR_SHORTCUT_DUPLICATED" },
    });
    const other = (await post({ shortcut: "bye", message: MESSAGE })).json;
    expect(
      await call(ctx.app, "PUT", `/api/quickAnswers/${other.id}`, { token: admin, body: { shortcut: "hi" } }),
    ).toMatchObject({ status: 400, json: { error: "ERR_SHORTCUT_DUPLICATED" } });
  });

  test("unknown ids are 404 ERR_NO_QUICK_ANSWER_FOUND; bad ids 400", async () => {
    const { ctx, token, admin } = await setup();
    const missing = { status: 404, json: { error: "ERR_NO_QUICK_ANSWER_FOUND" } };
    expect(await call(ctx.app, "GET", "/api/quickAnswers/77", { token })).toMatchObject(missing);
    expect(
      await call(ctx.app, "PUT", "/api/quickAnswers/77", { token: admin, body: { message: MESSAGE } }),
    ).toMatchObject(missing);
    expect(await call(ctx.app, "DELETE", "/api/quickAnswers/77", { token: admin })).toMatchObject(missing);
    expect((await call(ctx.app, "GET", "/api/quickAnswers/x1", { token })).status).toBe(400);
    expect((await call(ctx.app, "GET", "/api/quickAnswers/99999999999999999999", { token })).status).toBe(400);
  });

  test("list: shortcut order, 20 a page with hasMore, search on shortcut and message", async () => {
    const { ctx, token } = await setup();
    for (let i = 0; i < 21; i++)
      await call(ctx.app, "POST", "/api/quickAnswers", {
        token,
        body: { shortcut: `s${String(i).padStart(2, "0")}`, message: i === 5 ? "Special PROMO text" : MESSAGE },
      });
    const first = await call(ctx.app, "GET", "/api/quickAnswers", { token });
    expect(first.json).toMatchObject({ count: 21, hasMore: true });
    expect(first.json.quickAnswers[0].shortcut).toBe("s00");
    const second = await call(ctx.app, "GET", "/api/quickAnswers?pageNumber=2", { token });
    expect(second.json).toMatchObject({ count: 21, hasMore: false, quickAnswers: [{ shortcut: "s20" }] });
    expect(
      (await call(ctx.app, "GET", "/api/quickAnswers?searchParam=%20Promo", { token })).json.quickAnswers.map(
        (q: { shortcut: string }) => q.shortcut,
      ),
    ).toEqual(["s05"]);
    expect((await call(ctx.app, "GET", "/api/quickAnswers?searchParam=S1", { token })).json.count).toBe(10);
    expect((await call(ctx.app, "GET", "/api/quickAnswers")).status).toBe(401);
  });
});
