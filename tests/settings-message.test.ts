// @engine once
import { one } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { connections } from "../src/db/tables";
import { call, loginAs, makeTestApp } from "./helpers";

async function setup() {
  const ctx = await makeTestApp();
  const admin = await loginAs(ctx, { profile: "admin" });
  const agent = await loginAs(ctx);
  const w = await one(ctx.db.insert(connections).values({ name: "Main" }).returning());
  return { ctx, admin: admin.token, agent: agent.token, w };
}

describe("settingsMessage", () => {
  test("an unsaved connection answers an empty object", async () => {
    const { ctx, admin, w } = await setup();
    expect(await call(ctx.app, "GET", `/api/settingsMessage/${w.id}`, { token: admin })).toMatchObject({
      status: 200,
      json: {},
    });
  });

  test("POST persists every field (the client's `contact` included) and tells admins only", async () => {
    const { ctx, admin, w } = await setup();
    const body = {
      whatsappId: w.id,
      limit: 50,
      minutes: 2,
      seconds: 30,
      contact: true,
      photo: true,
      random: true,
      optOut: "Reply STOP",
    };
    const res = await call(ctx.app, "POST", "/api/settingsMessage", { token: admin, body });
    expect(res).toMatchObject({
      status: 200,
      json: {
        whatsappId: w.id,
        limit: 50,
        minutes: 2,
        seconds: 30,
        contacts: true,
        photo: true,
        random: true,
        optOut: "Reply STOP",
      },
    });
    const again = await call(ctx.app, "POST", "/api/settingsMessage", {
      token: admin,
      body: { whatsappId: w.id, contacts: false, limit: 0 },
    });
    expect(again.json).toMatchObject({ id: res.json.id, contacts: false, limit: 0, minutes: 2, optOut: "Reply STOP" });
    expect(await call(ctx.app, "GET", `/api/settingsMessage/${w.id}`, { token: admin })).toMatchObject({
      json: { contacts: false, seconds: 30 },
    });
    expect(ctx.hub.to("admins", "settingsMessage")).toHaveLength(2);
    expect(ctx.hub.to("all", "settingsMessage")).toHaveLength(0);
  });

  test("limits: limit ≥ 0, minutes ≥ 0, 0 ≤ seconds < 60; the connection must exist", async () => {
    const { ctx, admin, w } = await setup();
    const post = (body: unknown) => call(ctx.app, "POST", "/api/settingsMessage", { token: admin, body });
    expect(await post({ whatsappId: w.id, limit: -1 })).toMatchObject({ status: 400, json: { field: "limit" } });
    expect(await post({ whatsappId: w.id, minutes: -1 })).toMatchObject({ status: 400, json: { field: "minutes" } });
    expect(await post({ whatsappId: w.id, seconds: 60 })).toMatchObject({ status: 400, json: { field: "seconds" } });
    expect(await post({ whatsappId: w.id, seconds: -1 })).toMatchObject({ status: 400, json: { field: "seconds" } });
    expect(await post({ whatsappId: w.id, limit: "ten" })).toMatchObject({ status: 400 });
    expect(await post({ limit: 1 })).toMatchObject({ status: 400, json: { field: "whatsappId" } });
    expect(await post({ whatsappId: 999 })).toMatchObject({ status: 404, json: { error: "ERR_NO_WAPP_FOUND" } });
    expect((await call(ctx.app, "GET", "/api/settingsMessage/abc", { token: admin })).status).toBe(400);
  });

  test("agents are refused", async () => {
    const { ctx, agent, w } = await setup();
    expect(await call(ctx.app, "GET", `/api/settingsMessage/${w.id}`, { token: agent })).toMatchObject({
      status: 403,
      json: { error: "ERR_NO_PERMISSION" },
    });
    expect(
      await call(ctx.app, "POST", "/api/settingsMessage", { token: agent, body: { whatsappId: w.id } }),
    ).toMatchObject({ status: 403, json: { error: "ERR_NO_PERMISSION" } });
  });
});
