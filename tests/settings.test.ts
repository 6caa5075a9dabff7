// @engine once
import { describe, expect, test } from "bun:test";
import { call, loginAs, makeTestApp } from "./helpers";

describe("settings", () => {
  test("defaults are seeded: signup disabled, 12 h reopen window, calls on, groups ignored, text bot, an API token", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const res = await call(ctx.app, "GET", "/api/settings", { token });
    expect(res.status).toBe(200);
    const byKey = Object.fromEntries(res.json.map((s: { key: string; value: string }) => [s.key, s.value]));
    expect(byKey).toMatchObject({
      userCreation: "disabled",
      timeCreateNewTicket: "43200",
      call: "enabled",
      CheckMsgIsGroup: "enabled",
      chatBotType: "text",
    });
    expect(byKey.userApiToken).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("an agent is refused with 403 ERR_NO_PERMISSION", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx);
    expect(await call(ctx.app, "GET", "/api/settings", { token })).toMatchObject({
      status: 403,
      json: { error: "ERR_NO_PERMISSION" },
    });
    const put = await call(ctx.app, "PUT", "/api/settings/userCreation", { token, body: { value: "enabled" } });
    expect(put).toMatchObject({ status: 403, json: { error: "ERR_NO_PERMISSION" } });
  });

  test("an admin updates a value, which is checked against the key's allowed values, and admins are told", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const ok = await call(ctx.app, "PUT", "/api/settings/chatBotType", { token, body: { value: "list" } });
    expect(ok).toMatchObject({ status: 200, json: { key: "chatBotType", value: "list" } });
    expect(ctx.hub.to("admins", "settings")[0]!.payload).toMatchObject({
      action: "update",
      setting: { key: "chatBotType", value: "list" },
    });
    const bad = await call(ctx.app, "PUT", "/api/settings/chatBotType", { token, body: { value: "carousel" } });
    expect(bad).toMatchObject({ status: 400, json: { error: "ERR_INVALID_SETTING_VALUE" } });
    const unknown = await call(ctx.app, "PUT", "/api/settings/nope", { token, body: { value: "x" } });
    expect(unknown).toMatchObject({ status: 404, json: { error: "ERR_NO_SETTING_FOUND" } });
  });
});

describe("authorization before validation", () => {
  test("a refused caller gets 401/403 even with an invalid body, never a validation answer", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx);
    const bad = { value: 42 };
    expect(await call(ctx.app, "PUT", "/api/settings/call", { body: bad })).toMatchObject({ status: 401 });
    expect(await call(ctx.app, "PUT", "/api/settings/call", { token, body: bad })).toMatchObject({
      status: 403,
      json: { error: "ERR_NO_PERMISSION" },
    });
    expect(await call(ctx.app, "POST", "/api/queue", { token, body: { name: "x" } })).toMatchObject({
      status: 403,
      json: { error: "ERR_NO_PERMISSION" },
    });
  });
});
