// @engine each
import { one } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { contacts, queues, tickets, connections, users } from "../src/db/tables";
import { call, createUser, setupAdminAndAgent } from "./helpers";

async function setup() {
  return setupAdminAndAgent({ agent: { name: "Agent Smith" } });
}

describe("users", () => {
  test("an admin creates an agent with queues and a connection; everyone is told; no secrets in the answer", async () => {
    const { ctx, admin } = await setup();
    const q = await one(ctx.db.insert(queues).values({ name: "Sales", color: "#f00" }).returning());
    const w = await one(ctx.db.insert(connections).values({ name: "Main" }).returning());
    const res = await call(ctx.app, "POST", "/api/users", {
      token: admin.token,
      body: { name: "Maria", email: "Maria@Example.com", password: "secret1", queueIds: [q.id], whatsappId: w.id },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      name: "Maria",
      email: "maria@example.com",
      profile: "user",
      whatsapp: { id: w.id, name: "Main" },
      queues: [{ id: q.id, name: "Sales" }],
    });
    expect(res.json.passwordHash).toBeUndefined();
    expect(res.json.tokenVersion).toBeUndefined();
    expect(ctx.hub.to("all", "user")[0]!.payload).toMatchObject({
      action: "create",
      user: { email: "maria@example.com" },
    });
    const login = await call(ctx.app, "POST", "/api/auth/login", {
      body: { email: "maria@example.com", password: "secret1" },
      headers: { "x-forwarded-for": "10.9.9.9" },
    });
    expect(login.status).toBe(200);
  });

  test("create validates name, email and password with the form's messages, and refuses a taken email", async () => {
    const { ctx, admin, agent } = await setup();
    const post = (body: unknown) => call(ctx.app, "POST", "/api/users", { token: admin.token, body });
    expect(await post({ email: "a@b.co", password: "secret1" })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "required", message: "Required", field: "name" },
    });
    expect(await post({ name: "A", email: "a@b.co", password: "secret1" })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "min", message: "Too Short!", field: "name" },
    });
    expect(await post({ name: "A".repeat(51), email: "a@b.co", password: "secret1" })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "max", message: "Too Long!" },
    });
    expect(await post({ name: "Ann", email: "nope", password: "secret1" })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "email", message: "Invalid email", field: "email" },
    });
    expect(await post({ name: "Ann", email: "a@b.co", password: "1234" })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "min", message: "Too Short!", field: "password" },
    });
    expect(await post({ name: "Ann", email: agent.user.email.toUpperCase(), password: "secret1" })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "unique", message: "An user with this email already exists." },
    });
    expect(await post({ name: "Ann", email: "a@b.co", password: "secret1", profile: "root" })).toMatchObject({
      status: 400,
      json: { field: "profile" },
    });
    expect(await post({ name: "Ann", email: "a@b.co", password: "secret1", queueIds: [999] })).toMatchObject({
      status: 400,
      json: { error: "ERR_NO_QUEUE_FOUND" },
    });
    expect(await post({ name: "Ann", email: "a@b.co", password: "secret1", whatsappId: 999 })).toMatchObject({
      status: 400,
      json: { error: "ERR_NO_WAPP_FOUND" },
    });
    expect(await post("not an object")).toMatchObject({ status: 400 });
  });

  test("agents may not create, delete, or edit others, nor change their own profile, queues or connection", async () => {
    const { ctx, admin, agent } = await setup();
    const no = { status: 403, json: { error: "ERR_NO_PERMISSION" } };
    expect(
      await call(ctx.app, "POST", "/api/users", {
        token: agent.token,
        body: { name: "Ann", email: "a@b.co", password: "secret1" },
      }),
    ).toMatchObject(no);
    expect(await call(ctx.app, "DELETE", `/api/users/${admin.user.id}`, { token: agent.token })).toMatchObject(no);
    expect(
      await call(ctx.app, "PUT", `/api/users/${admin.user.id}`, { token: agent.token, body: { name: "Hacked" } }),
    ).toMatchObject(no);
    expect(
      await call(ctx.app, "PUT", `/api/users/${agent.user.id}`, { token: agent.token, body: { profile: "admin" } }),
    ).toMatchObject(no);
    const q = await one(ctx.db.insert(queues).values({ name: "Sales", color: "#f00" }).returning());
    expect(
      await call(ctx.app, "PUT", `/api/users/${agent.user.id}`, { token: agent.token, body: { queueIds: [q.id] } }),
    ).toMatchObject(no);
  });

  test("a user edits their own name and email (the modal may resend unchanged profile and queues)", async () => {
    const { ctx, agent } = await setup();
    const res = await call(ctx.app, "PUT", `/api/users/${agent.user.id}`, {
      token: agent.token,
      body: { name: "New Name", email: "new@example.com", profile: "user", queueIds: [], whatsappId: null },
    });
    expect(res).toMatchObject({ status: 200, json: { name: "New Name", email: "new@example.com" } });
    expect(ctx.hub.to("all", "user").at(-1)!.payload).toMatchObject({ action: "update", user: { name: "New Name" } });
  });

  test("a password change ends the user's sessions (tokenVersion) and is validated", async () => {
    const { ctx, admin, agent } = await setup();
    expect(
      await call(ctx.app, "PUT", `/api/users/${agent.user.id}`, { token: agent.token, body: { password: "123" } }),
    ).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "min", message: "Too Short!", field: "password" },
    });
    const ok = await call(ctx.app, "PUT", `/api/users/${agent.user.id}`, {
      token: admin.token,
      body: { password: "another1" },
    });
    expect(ok.status).toBe(200);
    expect((await call(ctx.app, "GET", "/api/users", { token: agent.token })).status).toBe(401);
    const login = await call(ctx.app, "POST", "/api/auth/login", {
      body: { email: agent.user.email, password: "another1" },
      headers: { "x-forwarded-for": "10.9.9.8" },
    });
    expect(login.status).toBe(200);
  });

  test("changing one's own password keeps this device signed in and ends the user's other sessions", async () => {
    const { ctx, agent } = await setup();
    const login = (address: string) =>
      call(ctx.app, "POST", "/api/auth/login", {
        body: { email: agent.user.email, password: agent.user.password },
        headers: { "x-forwarded-for": address },
      });
    const laptop = await login("10.9.9.1");
    const phone = await login("10.9.9.2");
    const cookieOf = (res: { headers: Headers }) => (res.headers.get("set-cookie") ?? "").split(";")[0]!;
    const changed = await call(ctx.app, "PUT", `/api/users/${agent.user.id}`, {
      token: laptop.json.token,
      body: { password: "another1", currentPassword: agent.user.password },
    });
    expect(changed.status).toBe(200);
    expect((await call(ctx.app, "GET", "/api/users", { token: laptop.json.token })).status).toBe(200);
    const refresh = (res: { headers: Headers }) =>
      call(ctx.app, "POST", "/api/auth/refresh_token", { headers: { cookie: cookieOf(res) } });
    expect((await refresh(laptop)).status).toBe(200);
    expect((await call(ctx.app, "GET", "/api/users", { token: phone.json.token })).status).toBe(401);
    expect((await refresh(phone)).status).toBe(401);
  });

  test("admins change profile and queues; absent queueIds leaves them; emails stay unique on update", async () => {
    const { ctx, admin, agent } = await setup();
    const q = await one(ctx.db.insert(queues).values({ name: "Sales", color: "#f00" }).returning());
    const set = await call(ctx.app, "PUT", `/api/users/${agent.user.id}`, {
      token: admin.token,
      body: { queueIds: [q.id, q.id] },
    });
    expect(set.json.queues.map((x: { id: number }) => x.id)).toEqual([q.id]);
    const kept = await call(ctx.app, "PUT", `/api/users/${agent.user.id}`, {
      token: admin.token,
      body: { name: "Still queued" },
    });
    expect(kept.json.queues).toHaveLength(1);
    expect(
      await call(ctx.app, "PUT", `/api/users/${agent.user.id}`, {
        token: admin.token,
        body: { email: admin.user.email },
      }),
    ).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", rule: "unique", message: "An user with this email already exists." },
    });
    const promoted = await call(ctx.app, "PUT", `/api/users/${agent.user.id}`, {
      token: admin.token,
      body: { profile: "admin" },
    });
    expect(promoted.json.profile).toBe("admin");
    expect(
      await call(ctx.app, "PUT", "/api/users/999", { token: admin.token, body: { name: "Nobody" } }),
    ).toMatchObject({ status: 404, json: { error: "ERR_NO_USER_FOUND" } });
  });

  test("two admins demoting each other at once leave one admin", async () => {
    const { ctx, admin } = await setup();
    const other = await createUser(ctx, { profile: "admin" });
    const otherToken = (
      await call(ctx.app, "POST", "/api/auth/login", { body: { email: other.email, password: other.password } })
    ).json.token;
    const answers = await Promise.all([
      call(ctx.app, "PUT", `/api/users/${other.id}`, { token: admin.token, body: { profile: "user" } }),
      call(ctx.app, "PUT", `/api/users/${admin.user.id}`, { token: otherToken, body: { profile: "user" } }),
    ]);
    // The other is refused: as the last admin (400), or because its demotion already ended its session (401).
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const admins = (await ctx.db.select().from(users)).filter((u) => u.profile === "admin");
    expect(admins).toHaveLength(1);
  });

  test("delete: not oneself, not the last admin; unknown is 404; everyone is told", async () => {
    const { ctx, admin, agent } = await setup();
    expect(await call(ctx.app, "DELETE", `/api/users/${admin.user.id}`, { token: admin.token })).toMatchObject({
      status: 400,
      json: { error: "ERR_CANNOT_DELETE_SELF" },
    });
    const other = await createUser(ctx, { profile: "admin" });
    expect((await call(ctx.app, "DELETE", `/api/users/${other.id}`, { token: admin.token })).status).toBe(200);
    expect(
      await call(ctx.app, "PUT", `/api/users/${admin.user.id}`, { token: admin.token, body: { profile: "user" } }),
    ).toMatchObject({ status: 400, json: { error: "ERR_LAST_ADMIN" } });
    expect(await call(ctx.app, "DELETE", `/api/users/${agent.user.id}`, { token: admin.token })).toMatchObject({
      status: 200,
      json: { message: "User deleted" },
    });
    expect(ctx.hub.to("all", "user").at(-1)!.payload).toEqual({ action: "delete", userId: agent.user.id });
    expect(await call(ctx.app, "DELETE", `/api/users/${agent.user.id}`, { token: admin.token })).toMatchObject({
      status: 404,
      json: { error: "ERR_NO_USER_FOUND" },
    });
    expect((await call(ctx.app, "DELETE", "/api/users/0", { token: admin.token })).status).toBe(400);
  });

  test("list: newest first, 20 a page with hasMore, search by name or email; show by id", async () => {
    const { ctx, admin, agent } = await setup();
    for (let i = 0; i < 20; i++) await createUser(ctx, { name: `Bulk ${i}`, email: `bulk${i}@corp.io` });
    const first = await call(ctx.app, "GET", "/api/users", { token: agent.token });
    expect(first.json).toMatchObject({ count: 22, hasMore: true });
    expect(first.json.users).toHaveLength(20);
    const second = await call(ctx.app, "GET", "/api/users?pageNumber=2", { token: agent.token });
    expect(second.json).toMatchObject({ count: 22, hasMore: false });
    expect(second.json.users.map((u: { id: number }) => u.id)).toContain(admin.user.id);
    const byName = await call(ctx.app, "GET", "/api/users?searchParam=%20AGENT%20smith", { token: agent.token });
    expect(byName.json.users.map((u: { id: number }) => u.id)).toEqual([agent.user.id]);
    const byEmail = await call(ctx.app, "GET", "/api/users?searchParam=corp.io", { token: agent.token });
    expect(byEmail.json.count).toBe(20);
    expect(await call(ctx.app, "GET", `/api/users/${admin.user.id}`, { token: agent.token })).toMatchObject({
      status: 200,
      json: { id: admin.user.id },
    });
    expect(await call(ctx.app, "GET", "/api/users/999", { token: agent.token })).toMatchObject({
      status: 404,
      json: { error: "ERR_NO_USER_FOUND" },
    });
    expect((await call(ctx.app, "GET", "/api/users")).status).toBe(401);
  });

  test("deleting a user puts their open tickets back to pending in their queue, unassigned", async () => {
    const { ctx, admin, agent } = await setup();
    const q = await one(ctx.db.insert(queues).values({ name: "Sales", color: "#f00" }).returning());
    const contact = await one(ctx.db.insert(contacts).values({ name: "C", number: "5511999990000" }).returning());
    const open = await one(
      ctx.db
        .insert(tickets)
        .values({ contactId: contact.id, status: "open", userId: agent.user.id, queueId: q.id })
        .returning(),
    );
    const contact2 = await one(ctx.db.insert(contacts).values({ name: "D", number: "5511999990001" }).returning());
    const closed = await one(
      ctx.db.insert(tickets).values({ contactId: contact2.id, status: "closed", userId: agent.user.id }).returning(),
    );
    expect((await call(ctx.app, "DELETE", `/api/users/${agent.user.id}`, { token: admin.token })).status).toBe(200);
    const rows = await ctx.db.select().from(tickets);
    expect(rows.find((t) => t.id === open.id)).toMatchObject({ status: "pending", userId: null, queueId: q.id });
    expect(rows.find((t) => t.id === closed.id)).toMatchObject({ status: "closed", userId: null });
    expect(ctx.hub.named("ticket").length).toBeGreaterThan(0);
  });
});
