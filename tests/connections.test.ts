// @engine once
import { one } from "../src/db/client";
import { describe, expect, spyOn, test } from "bun:test";
import { createApp } from "../src/app";
import { contacts, queues, tickets, connectionPhonebook, connections } from "../src/db/tables";
import type { Reader } from "../src/db/client";
import { LocalEventBus } from "../src/events/bus";
import { createLogger } from "../src/log";
import * as connectionsLookup from "../src/modules/connections/lookup";
import { providerCache } from "../src/modules/connections/provider-cache";
import { FakeChannels } from "./fake-channels";
import { call, loginAs, makeTestApp, testConfig } from "./helpers";

async function setup(opts: { failStart?: boolean; sandbox?: boolean } = {}) {
  const ctx = await makeTestApp();
  const fake = new FakeChannels({ failStart: opts.failStart });
  const app = await createApp({
    ...ctx.deps,
    config: testConfig({ sandbox: opts.sandbox ?? true }),
    channels: fake,
  });
  const admin = await loginAs(ctx, { profile: "admin" });
  const agent = await loginAs(ctx);
  const q1 = await one(ctx.db.insert(queues).values({ name: "Sales", color: "#f00" }).returning());
  const q2 = await one(ctx.db.insert(queues).values({ name: "Support", color: "#0f0" }).returning());
  return { ctx, app, fake, admin: admin.token, agent: agent.token, q1, q2 };
}

describe("connections", () => {
  test("create: every field stored, the first one is the default, the session starts, admins are told", async () => {
    const { ctx, app, fake, admin, q1 } = await setup();
    const body = {
      name: "Main",
      provider: "sandbox",
      greetingMessage: "Hello",
      farewellMessage: "Bye",
      transferTicketMessage: "Moving you",
      outOfWorkMessage: "Closed",
      wavoip: "secret-token",
      defineWorkHours: true,
      startWorkHour: "09:00",
      endWorkHour: "18:00",
      startWorkHourWeekend: "10:00",
      endWorkHourWeekend: "12:00",
      saturday: true,
      monday: false,
      queueIds: [q1.id],
    };
    const res = await call(app, "POST", "/api/whatsapp", { token: admin, body });
    expect(res.status).toBe(200);
    const { queueIds: _q, ...fields } = body;
    expect(res.json).toMatchObject({
      ...fields,
      isDefault: true,
      status: "OPENING",
      queues: [{ id: q1.id, name: "Sales", chatbots: [] }],
    });
    await fake.started();
    expect(fake.calls).toEqual([`start:${res.json.id}`]);
    expect(ctx.hub.to("admins", "whatsapp")[0]!.payload).toMatchObject({
      action: "update",
      whatsapp: { id: res.json.id, name: "Main" },
    });
    expect(ctx.hub.to("all", "whatsapp")).toEqual([]);
    const second = await call(app, "POST", "/api/whatsapp", { token: admin, body: { name: "Second" } });
    expect(second.json).toMatchObject({
      isDefault: false,
      provider: "baileys",
      startWorkHour: "08:00",
      saturday: false,
    });
  });

  test("a failing session start does not fail the create", async () => {
    const { app, fake, admin } = await setup({ failStart: true });
    const res = await call(app, "POST", "/api/whatsapp", { token: admin, body: { name: "Main" } });
    expect(res.status).toBe(200);
    await fake.started();
    expect(fake.calls).toHaveLength(1);
  });

  test("validation: name 2–50 and unique, greeting with more than one queue, HH:mm hours, sandbox only when enabled", async () => {
    const { app, admin, q1, q2 } = await setup();
    const post = (body: unknown) => call(app, "POST", "/api/whatsapp", { token: admin, body });
    expect(await post({})).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "required", message: "Required", field: "name" },
    });
    expect(await post({ name: "M" })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "min", message: "Too Short!", field: "name" },
    });
    expect(await post({ name: "M".repeat(51) })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "max", message: "Too Long!", field: "name" },
    });
    expect(await post({ name: "Main", queueIds: [q1.id, q2.id] })).toMatchObject({
      status: 400,
      json: { error: "ERR_WAPP_GREETING_REQUIRED" },
    });
    expect(await post({ name: "Main", startWorkHour: "25:00" })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", field: "startWorkHour", rule: "time", message: "Invalid time (HH:mm)" },
    });
    expect(await post({ name: "Main", endWorkHour: "8:00" })).toMatchObject({
      status: 400,
      json: { field: "endWorkHour" },
    });
    expect(await post({ name: "Main", provider: "telegram" })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", field: "provider", rule: "invalid" },
    });
    expect(await post({ name: "Main", queueIds: [999] })).toMatchObject({
      status: 400,
      json: { error: "ERR_NO_QUEUE_FOUND" },
    });
    expect(await post({ name: "Main", monday: "yes" })).toMatchObject({ status: 400 });
    expect((await post({ name: "Main", queueIds: [q1.id, q2.id], greetingMessage: "Pick a queue" })).status).toBe(200);
    expect(await post({ name: "Main" })).toMatchObject({
      status: 400,
      json: { error: "ERR_WAPP_NAME_ALREADY_EXISTS" },
    });
    const off = await setup({ sandbox: false });
    expect(
      await call(off.app, "POST", "/api/whatsapp", { token: off.admin, body: { name: "Fake", provider: "sandbox" } }),
    ).toMatchObject({ status: 403, json: { error: "ERR_SANDBOX_DISABLED" } });
  });

  test("update: fields written, queueIds absent leaves queues, default moves (both told), the only default cannot be unset", async () => {
    const { ctx, app, admin, q1, q2 } = await setup();
    const a = (await call(app, "POST", "/api/whatsapp", { token: admin, body: { name: "Alpha", queueIds: [q1.id] } }))
      .json;
    const b = (await call(app, "POST", "/api/whatsapp", { token: admin, body: { name: "Bravo" } })).json;
    const renamed = await call(app, "PUT", `/api/whatsapp/${a.id}`, {
      token: admin,
      body: { name: "Alpha 2", sunday: true },
    });
    expect(renamed.json).toMatchObject({ name: "Alpha 2", sunday: true, queues: [{ id: q1.id }] });
    expect(
      await call(app, "PUT", `/api/whatsapp/${a.id}`, { token: admin, body: { queueIds: [q1.id, q2.id] } }),
    ).toMatchObject({ status: 400, json: { error: "ERR_WAPP_GREETING_REQUIRED" } });
    expect(await call(app, "PUT", `/api/whatsapp/${a.id}`, { token: admin, body: { name: "Bravo" } })).toMatchObject({
      status: 400,
      json: { error: "ERR_WAPP_NAME_ALREADY_EXISTS" },
    });
    expect(await call(app, "PUT", `/api/whatsapp/${a.id}`, { token: admin, body: { isDefault: false } })).toMatchObject(
      { status: 400, json: { error: "ERR_NO_OTHER_WHATSAPP" } },
    );
    ctx.hub.clear();
    const moved = await call(app, "PUT", `/api/whatsapp/${b.id}`, { token: admin, body: { isDefault: true } });
    expect(moved.json.isDefault).toBe(true);
    const told = ctx.hub
      .to("admins", "whatsapp")
      .map((e) => (e.payload as { whatsapp: { id: number; isDefault: boolean } }).whatsapp);
    expect(told).toEqual([
      expect.objectContaining({ id: a.id, isDefault: false }),
      expect.objectContaining({ id: b.id, isDefault: true }),
    ]);
    const cleared = await call(app, "PUT", `/api/whatsapp/${a.id}`, { token: admin, body: { queueIds: [] } });
    expect(cleared.json.queues).toEqual([]);
    expect(await call(app, "PUT", "/api/whatsapp/999", { token: admin, body: { name: "Nope" } })).toMatchObject({
      status: 404,
      json: { error: "ERR_NO_WAPP_FOUND" },
    });
  });

  test("language: pt unless given, en or es accepted on create and update, anything else refused", async () => {
    const { app, admin } = await setup();
    const created = await call(app, "POST", "/api/whatsapp", { token: admin, body: { name: "Alpha" } });
    expect(created.json.language).toBe("pt");
    const english = await call(app, "POST", "/api/whatsapp", { token: admin, body: { name: "Bravo", language: "en" } });
    expect(english.json.language).toBe("en");
    // The default survey is written in the connection's language when it names one.
    const portuguese = await call(app, "POST", "/api/whatsapp", {
      token: admin,
      body: { name: "Charlie", language: "pt" },
    });
    expect(portuguese.json.csatMessage).toContain("Como você avalia nosso atendimento?");
    const changed = await call(app, "PUT", `/api/whatsapp/${created.json.id}`, {
      token: admin,
      body: { language: "es" },
    });
    expect(changed).toMatchObject({ status: 200, json: { language: "es" } });
    expect((await call(app, "GET", `/api/whatsapp/${created.json.id}`, { token: admin })).json.language).toBe("es");
    expect(
      await call(app, "PUT", `/api/whatsapp/${created.json.id}`, { token: admin, body: { language: "fr" } }),
    ).toMatchObject({ status: 400, json: { error: "VALIDATION", field: "language" } });
  });

  test("delete: not the default while others exist; logs out first, drops the phone book, tickets lose the connection", async () => {
    const { ctx, app, fake, admin } = await setup();
    const a = (await call(app, "POST", "/api/whatsapp", { token: admin, body: { name: "Alpha" } })).json;
    const b = (await call(app, "POST", "/api/whatsapp", { token: admin, body: { name: "Bravo" } })).json;
    expect(await call(app, "DELETE", `/api/whatsapp/${a.id}`, { token: admin })).toMatchObject({
      status: 400,
      json: { error: "ERR_NO_OTHER_WHATSAPP" },
    });
    const contact = await one(ctx.db.insert(contacts).values({ name: "C", number: "5511999990000" }).returning());
    await ctx.db.insert(tickets).values({ contactId: contact.id, whatsappId: b.id });
    await ctx.db
      .insert(connectionPhonebook)
      .values({ whatsappId: b.id, jid: "5511999990000@s.whatsapp.net", phone: "5511999990000" });
    expect(await call(app, "DELETE", `/api/whatsapp/${b.id}`, { token: admin })).toMatchObject({
      status: 200,
      json: { message: "Whatsapp deleted." },
    });
    expect(fake.calls).toContain(`disconnect:${b.id}`);
    expect(await ctx.db.select().from(connectionPhonebook)).toHaveLength(0);
    expect((await ctx.db.select().from(tickets))[0]!.whatsappId).toBeNull();
    expect(ctx.hub.to("admins", "whatsapp").at(-1)!.payload).toEqual({ action: "delete", whatsappId: b.id });
    expect(await call(app, "DELETE", `/api/whatsapp/${b.id}`, { token: admin })).toMatchObject({
      status: 404,
      json: { error: "ERR_NO_WAPP_FOUND" },
    });
    expect((await call(app, "DELETE", `/api/whatsapp/${a.id}`, { token: admin })).status).toBe(200);
    expect(await ctx.db.select().from(connections)).toHaveLength(0);
  });

  test("reads for everyone (call token for admins only) with queues and first-level chatbots; writes admin-only", async () => {
    const { app, admin, agent } = await setup();
    const queue = (
      await call(app, "POST", "/api/queue", {
        token: admin,
        body: { name: "Bots", color: "#00f", chatbots: [{ name: "Option one", options: [{ name: "Deeper one" }] }] },
      })
    ).json;
    const w = (
      await call(app, "POST", "/api/whatsapp", {
        token: admin,
        body: { name: "Main", wavoip: "tok", queueIds: [queue.id] },
      })
    ).json;
    const list = await call(app, "GET", "/api/whatsapp", { token: agent });
    expect(list.json).toHaveLength(1);
    expect(list.json[0]).toMatchObject({ id: w.id, queues: [{ id: queue.id, name: "Bots", color: "#00f" }] });
    expect(list.json[0].wavoip).toBeUndefined();
    expect((await call(app, "GET", "/api/whatsapp", { token: admin })).json[0].wavoip).toBe("tok");
    const shown = await call(app, "GET", `/api/whatsapp/${w.id}`, { token: agent });
    expect(shown.json.queues[0].chatbots).toEqual([
      { id: queue.chatbots[0].id, name: "Option one", greetingMessage: "" },
    ]);
    expect(shown.json.wavoip).toBeUndefined();
    expect(await call(app, "GET", "/api/whatsapp/999", { token: agent })).toMatchObject({
      status: 404,
      json: { error: "ERR_NO_WAPP_FOUND" },
    });
    const no = { status: 403, json: { error: "ERR_NO_PERMISSION" } };
    expect(await call(app, "POST", "/api/whatsapp", { token: agent, body: { name: "Mine" } })).toMatchObject(no);
    expect(await call(app, "PUT", `/api/whatsapp/${w.id}`, { token: agent, body: { name: "Mine" } })).toMatchObject(no);
    expect(await call(app, "DELETE", `/api/whatsapp/${w.id}`, { token: agent })).toMatchObject(no);
    expect((await call(app, "GET", "/api/whatsapp")).status).toBe(401);
  });

  test("with the real connection manager: a sandbox connection starts after create and is logged out on delete", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const created = await call(ctx.app, "POST", "/api/whatsapp", {
      token,
      body: { name: "Sandbox", provider: "sandbox" },
    });
    expect(created).toMatchObject({ status: 200, json: { provider: "sandbox", isDefault: true } });
    // The create route starts the session without waiting; the start needs only a few turns of the microtask queue.
    for (let i = 0; i < 1000 && !(await ctx.channels.isRunning(created.json.id)); i++) await Promise.resolve();
    expect(await ctx.channels.isRunning(created.json.id)).toBe(true);
    expect(await call(ctx.app, "DELETE", `/api/whatsapp/${created.json.id}`, { token })).toMatchObject({
      status: 200,
      json: { message: "Whatsapp deleted." },
    });
    expect(await ctx.channels.isRunning(created.json.id)).toBe(false);
  });
});

describe("the provider cache", () => {
  test("keeps a provider until the connection is edited or deleted; a read under way then is not kept", async () => {
    const events = new LocalEventBus(createLogger("silent"));
    let during: (() => void) | undefined;
    const lookups = spyOn(connectionsLookup, "connectionProvider").mockImplementation(async () => {
      during?.();
      return "sandbox";
    });
    try {
      const providerOf = providerCache({} as Reader, events);
      await providerOf(1);
      await providerOf(1);
      expect(lookups).toHaveBeenCalledTimes(1);
      events.emit("connection.deleted", { connectionId: 1 });
      during = () => events.emit("connection.deleted", { connectionId: 1 });
      await providerOf(1);
      during = undefined;
      await providerOf(1);
      await providerOf(1);
      expect(lookups).toHaveBeenCalledTimes(3);
    } finally {
      lookups.mockRestore();
    }
  });
});
