// @engine each
import { one } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { createApp } from "../src/app";
import {
  contactExtraInfo,
  contacts,
  schedules,
  tickets,
  users,
  connectionPhonebook,
  connections,
} from "../src/db/tables";
import { FakeChannels, type FakeChannelsOptions } from "./fake-channels";
import { call, createSandboxConnection, loginAs, makeTestApp } from "./helpers";
import { eq } from "drizzle-orm";

async function setup(
  channelOpts: FakeChannelsOptions = {
    known: { "5511988887777": "5511988887777", "551188887777": "5511988887777", "5511977776666": "5511977776666" },
  },
) {
  const ctx = await makeTestApp();
  const fake = new FakeChannels({ running: true, ...channelOpts });
  const app = await createApp({ ...ctx.deps, channels: fake });
  const admin = await loginAs(ctx, { profile: "admin" });
  const agent = await loginAs(ctx);
  const w = await one(ctx.db.insert(connections).values({ name: "Main", isDefault: true }).returning());
  return { ctx, app, fake, admin, agent, w };
}

describe("contacts", () => {
  test("create checks the number on the default connection and stores WhatsApp's canonical digits", async () => {
    const { ctx, app, fake, agent, w } = await setup();
    const res = await call(app, "POST", "/api/contacts", {
      token: agent.token,
      body: {
        name: "Joana",
        number: "55 (11) 8888-7777",
        email: "jo@example.com",
        extraInfo: [{ name: "CPF", value: "123" }],
      },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      name: "Joana",
      number: "5511988887777",
      email: "jo@example.com",
      extraInfo: [{ name: "CPF", value: "123" }],
    });
    expect(fake.checks).toEqual([{ connectionId: w.id, phone: "551188887777" }]);
    expect(ctx.hub.to("all", "contact")[0]!.payload).toMatchObject({
      action: "create",
      contact: { number: "5511988887777" },
    });
    const dup = await call(app, "POST", "/api/contacts", {
      token: agent.token,
      body: { name: "Joana 2", number: "5511988887777" },
    });
    expect(dup).toMatchObject({ status: 400, json: { error: "ERR_DUPLICATED_CONTACT" } });
  });

  test("create refusals: invalid, check failure, no default connection, session not running", async () => {
    const body = { name: "Joana", number: "5511900000000" };
    const a = await setup();
    expect(await call(a.app, "POST", "/api/contacts", { token: a.agent.token, body })).toMatchObject({
      status: 400,
      json: { error: "ERR_WAPP_INVALID_CONTACT" },
    });
    const b = await setup({ failCheck: true });
    expect(await call(b.app, "POST", "/api/contacts", { token: b.agent.token, body })).toMatchObject({
      status: 400,
      json: { error: "ERR_WAPP_CHECK_CONTACT" },
    });
    const c = await setup({ running: false });
    expect(await call(c.app, "POST", "/api/contacts", { token: c.agent.token, body })).toMatchObject({
      status: 400,
      json: { error: "ERR_WAPP_NOT_INITIALIZED" },
    });
    await c.ctx.db.update(connections).set({ isDefault: false });
    expect(await call(c.app, "POST", "/api/contacts", { token: c.agent.token, body })).toMatchObject({
      status: 400,
      json: { error: "ERR_NO_DEF_WAPP_FOUND" },
    });
  });

  test("validation: name 2–50, number 8–50 digits after formatting, email valid", async () => {
    const { app, agent } = await setup();
    const post = (body: unknown) => call(app, "POST", "/api/contacts", { token: agent.token, body });
    expect(await post({ number: "5511988887777" })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "required", message: "Required", field: "name" },
    });
    expect(await post({ name: "J", number: "5511988887777" })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "min", message: "Too Short!", field: "name" },
    });
    expect(await post({ name: "J".repeat(51), number: "5511988887777" })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "max", message: "Too Long!", field: "name" },
    });
    expect(await post({ name: "Joana" })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "required", message: "Required", field: "number" },
    });
    expect(await post({ name: "Joana", number: "1234-567" })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "min", message: "Too Short!", field: "number" },
    });
    expect(await post({ name: "Joana", number: "1".repeat(51) })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "max", message: "Too Long!", field: "number" },
    });
    expect(await post({ name: "Joana", number: "5511abc87777" })).toMatchObject({
      status: 400,
      json: {
        error: "VALIDATION",
        rule: "digits",
        message: "Invalid number format. Only numbers is allowed.",
        field: "number",
      },
    });
    expect(await post({ name: "Joana", number: "5511988887777", email: "nope" })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "email", message: "Invalid email", field: "email" },
    });
    expect(await post({ name: "Joana", number: 5511988887777 })).toMatchObject({ status: 400 });
  });

  test("update checks the number only when it changes; extra info is upserted by id and the rest removed", async () => {
    const { ctx, app, fake, agent } = await setup();
    const c = (
      await call(app, "POST", "/api/contacts", {
        token: agent.token,
        body: {
          name: "Joana",
          number: "5511988887777",
          extraInfo: [
            { name: "A", value: "1" },
            { name: "B", value: "2" },
          ],
        },
      })
    ).json;
    fake.checks.length = 0;
    const [a] = c.extraInfo;
    const res = await call(app, "PUT", `/api/contacts/${c.id}`, {
      token: agent.token,
      body: {
        name: "Joana S",
        number: "5511988887777",
        extraInfo: [
          { id: a.id, name: "A", value: "changed" },
          { name: "C", value: "3" },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(fake.checks).toEqual([]);
    expect(res.json).toMatchObject({ name: "Joana S", extraInfo: [{ id: a.id, value: "changed" }, { name: "C" }] });
    expect(res.json.extraInfo).toHaveLength(2);
    const moved = await call(app, "PUT", `/api/contacts/${c.id}`, {
      token: agent.token,
      body: { number: "5511977776666" },
    });
    expect(moved.json.number).toBe("5511977776666");
    expect(fake.checks).toHaveLength(1);
    expect(moved.json.extraInfo).toHaveLength(2);
    await ctx.db.insert(contacts).values({ name: "Other", number: "5511988887777" });
    expect(
      await call(app, "PUT", `/api/contacts/${c.id}`, { token: agent.token, body: { number: "5511988887777" } }),
    ).toMatchObject({ status: 400, json: { error: "ERR_DUPLICATED_CONTACT" } });
    expect(await call(app, "PUT", "/api/contacts/999", { token: agent.token, body: { name: "Nobody" } })).toMatchObject(
      { status: 404, json: { error: "ERR_NO_CONTACT_FOUND" } },
    );
    expect(ctx.hub.to("all", "contact").at(-1)!.payload).toMatchObject({ action: "update" });
  });

  test("an edited number is checked and stored without its formatting", async () => {
    const { ctx, app, agent } = await setup();
    const c = await one(ctx.db.insert(contacts).values({ name: "Joana", number: "5511988887777" }).returning());
    const put = (number: string) => call(app, "PUT", `/api/contacts/${c.id}`, { token: agent.token, body: { number } });
    expect(await put("+55 (11) 97777-6666")).toMatchObject({ status: 200, json: { number: "5511977776666" } });
    expect(await put("+55 (11) 9777a-6666")).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", field: "number", rule: "digits" },
    });
  });

  test("delete is admin-only and cascades to tickets and schedules", async () => {
    const { ctx, app, admin, agent } = await setup();
    const c = await one(ctx.db.insert(contacts).values({ name: "Joana", number: "5511988887777" }).returning());
    await ctx.db.insert(contactExtraInfo).values({ contactId: c.id, name: "A" });
    await ctx.db.insert(tickets).values({ contactId: c.id });
    await ctx.db.insert(schedules).values({ contactId: c.id, body: "Hello there", sendAt: new Date() });
    expect(await call(app, "DELETE", `/api/contacts/${c.id}`, { token: agent.token })).toMatchObject({
      status: 403,
      json: { error: "ERR_NO_PERMISSION" },
    });
    expect(await call(app, "DELETE", `/api/contacts/${c.id}`, { token: admin.token })).toMatchObject({ status: 200 });
    expect(await ctx.db.select().from(tickets)).toHaveLength(0);
    expect(await ctx.db.select().from(schedules)).toHaveLength(0);
    expect(ctx.hub.to("all", "contact").at(-1)!.payload).toEqual({ action: "delete", contactId: c.id });
    expect(await call(app, "DELETE", `/api/contacts/${c.id}`, { token: admin.token })).toMatchObject({
      status: 404,
      json: { error: "ERR_NO_CONTACT_FOUND" },
    });
  });

  test("list: name order, 20 a page with hasMore, search by name or number; /contacts/list unpaged by name; show with extra info", async () => {
    const { ctx, app, agent } = await setup();
    await ctx.db.insert(contacts).values(
      Array.from({ length: 21 }, (_, i) => ({
        name: `Person ${String(i).padStart(2, "0")}`,
        number: `55119000000${String(i).padStart(2, "0")}`,
      })),
    );
    const first = await call(app, "GET", "/api/contacts", { token: agent.token });
    expect(first.json).toMatchObject({ count: 21, hasMore: true });
    expect(first.json.contacts[0].name).toBe("Person 00");
    expect((await call(app, "GET", "/api/contacts?pageNumber=2", { token: agent.token })).json).toMatchObject({
      count: 21,
      hasMore: false,
    });
    expect(
      (await call(app, "GET", "/api/contacts?searchParam=%20PERSON%2001", { token: agent.token })).json.count,
    ).toBe(1);
    expect(
      (await call(app, "GET", "/api/contacts?searchParam=900000020", { token: agent.token })).json.contacts[0].name,
    ).toBe("Person 20");
    expect((await call(app, "GET", "/api/contacts/list", { token: agent.token })).json).toHaveLength(21);
    expect((await call(app, "GET", "/api/contacts/list?name=son%202", { token: agent.token })).json).toHaveLength(1);
    const id = first.json.contacts[0].id;
    expect(await call(app, "GET", `/api/contacts/${id}`, { token: agent.token })).toMatchObject({
      status: 200,
      json: { id, extraInfo: [] },
    });
    expect(await call(app, "GET", "/api/contacts/999", { token: agent.token })).toMatchObject({
      status: 404,
      json: { error: "ERR_NO_CONTACT_FOUND" },
    });
    expect((await call(app, "GET", "/api/contacts")).status).toBe(401);
  });

  test("POST /contact gets or creates by number without a WhatsApp check", async () => {
    const { ctx, app, fake, agent } = await setup();
    const created = await call(app, "POST", "/api/contact", {
      token: agent.token,
      body: { name: "Walk In", number: "+55 11 5555-4444" },
    });
    expect(created).toMatchObject({ status: 200, json: { name: "Walk In", number: "551155554444" } });
    const again = await call(app, "POST", "/api/contact", {
      token: agent.token,
      body: { name: "Other name", number: "551155554444" },
    });
    expect(again.json).toMatchObject({ id: created.json.id, name: "Walk In" });
    expect(fake.checks).toEqual([]);
    expect(ctx.hub.to("all", "contact")).toHaveLength(1);
    expect(await call(app, "POST", "/api/contact", { token: agent.token, body: { name: "X" } })).toMatchObject({
      status: 400,
    });
  });

  test("POST /contact for one new number twice at once answers both with the same contact", async () => {
    const { ctx, app, agent } = await setup();
    const both = await Promise.all(
      ["Ana", "Ana Paula"].map((name) =>
        call(app, "POST", "/api/contact", { token: agent.token, body: { name, number: "551155553333" } }),
      ),
    );
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(both[0]!.json.id).toBe(both[1]!.json.id);
    expect(ctx.hub.to("all", "contact")).toHaveLength(1);
  });

  test("import from the phone book of the caller's default connection: skips groups, LID-only and known numbers", async () => {
    const { ctx, app, agent, w } = await setup();
    expect(await call(app, "POST", "/api/contacts/import", { token: agent.token })).toMatchObject({
      status: 400,
      json: { error: "ERR_NO_PHONEBOOK" },
    });
    const own = await one(ctx.db.insert(connections).values({ name: "Mine" }).returning());
    await ctx.db.update(users).set({ whatsappId: own.id }).where(eq(users.id, agent.user.id));
    await ctx.db.insert(contacts).values({ name: "Known", number: "5511911112222" });
    await ctx.db.insert(connectionPhonebook).values([
      { whatsappId: own.id, jid: "5511933334444@s.whatsapp.net", phone: "5511933334444", name: "Ana" },
      { whatsappId: own.id, jid: "5511955556666@s.whatsapp.net", phone: null, name: null },
      { whatsappId: own.id, jid: "5511911112222@s.whatsapp.net", phone: "5511911112222", name: "Known again" },
      { whatsappId: own.id, jid: "1203630@g.us", phone: null, name: "Group" },
      { whatsappId: own.id, jid: "987654321@lid", phone: null, lid: "987654321", name: "Hidden" },
      { whatsappId: w.id, jid: "5511977778888@s.whatsapp.net", phone: "5511977778888", name: "Default only" },
    ]);
    const res = await call(app, "POST", "/api/contacts/import", { token: agent.token });
    expect(res).toMatchObject({ status: 200, json: { imported: 2, skipped: 3 } });
    const names = (await ctx.db.select().from(contacts)).map((c) => [c.name, c.number]);
    expect(names).toContainEqual(["Ana", "5511933334444"]);
    expect(names).toContainEqual(["5511955556666", "5511955556666"]);
    expect(
      ctx.hub.to("all", "contact").filter((e) => (e.payload as { action: string }).action === "create"),
    ).toHaveLength(2);
  });

  test("with the real connection manager: a paired sandbox default connection validates the number", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx);
    const body = { name: "Sandbox Friend", number: "55 11 91234-5678" };
    await createSandboxConnection(ctx, { isDefault: true, scan: false });
    expect((await call(ctx.app, "POST", "/api/contacts", { token, body })).status).toBe(400);
    await ctx.db.delete(connections);
    await createSandboxConnection(ctx, { isDefault: true });
    expect(await call(ctx.app, "POST", "/api/contacts", { token, body })).toMatchObject({
      status: 200,
      json: { number: "5511912345678" },
    });
  });
});
